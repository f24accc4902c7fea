import type { Config } from '../../platform/config';
import { createLocalStorage } from './local-storage';
import type { Storage } from './port';

/** The storage the configuration names: a local folder, or S3 (the AWS SDK, some 30 MB, is loaded only then). */
export async function openStorage(settings: Config['storage']): Promise<Storage> {
  if (settings.driver === 'local') return createLocalStorage(settings.dir);
  const { createS3Storage } = await import('./s3-storage');
  return createS3Storage(settings);
}
