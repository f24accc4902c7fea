import { openStorage } from '../src/server/adapters/storage/open-storage';
import type { OpenBucket } from '../src/server/backup';
import { ConfigError, loadConfig, type Config } from '../src/server/platform/config';

/** What `npm run backup` and `npm run restore` share: the wrong use of a command, and its setting-up. */
export class UsageError extends Error {}

export type Prepared<A> = { args: A; config: Config; secret: string } | { exitCode: number };

/**
 * Reads the arguments, the settings and the passphrase, in that order. `--help` prints the usage (exit 0); a
 * usage or settings error is said with the usage (exit 2); anything else is thrown.
 */
export async function prepare<A>(usage: string, parse: () => A | 'help', passphrase: (config: Config) => Promise<string>): Promise<Prepared<A>> {
  try {
    const args = parse();
    if (args === 'help') {
      console.log(usage);
      return { exitCode: 0 };
    }
    const config = loadConfig();
    return { args, config, secret: await passphrase(config) };
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(error.message);
      if (error instanceof UsageError) console.error(`\n${usage}`);
      return { exitCode: 2 };
    }
    throw error;
  }
}

/** How `s3://bucket/folder` is reached: with the S3 settings Clearbase has (S3_ENDPOINT, S3_REGION, the keys). */
export const bucketOpener =
  (config: Config): OpenBucket =>
  (bucket) =>
    openStorage({ driver: 's3', bucket, ...config.s3 });
