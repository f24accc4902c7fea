import { Readable } from 'node:stream';
import type { TDocType } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import { discardStaged, type RefusedFile, type StagedFile } from '../pipeline';
import { sanitizeOriginalFilename } from '../files';
import { FileUrlRefusedError, openFileUrl, type FilePolicy } from './fetch-file';
import { stageUpload } from './stage-file';

/**
 * A file a submission names, before it is staged: a link to download under the file policy (with the
 * headers the host wants for each address it is fetched from), or bytes already in hand.
 */
export type FileSource =
  | { kind: 'url'; url: string; filename: string; declaredType: TDocType | null; headers?: (url: URL) => Record<string, string> }
  | { kind: 'inline'; content: Buffer; filename: string; declaredType: TDocType | null };

export type StageSourcesDeps = {
  storage: Storage;
  masterKey: Buffer;
  maxFileBytes: number;
  /** Where the file at `position` is staged. */
  stagingKey: (position: number) => string;
  filePolicy: FilePolicy;
};

/**
 * Stages each file in turn (a form has a handful): downloaded or taken as given, size-capped, sealed and
 * judged by its bytes. A URL the policy refuses, or a download that fails, refuses that file with the
 * reason. Any other failure (storage away) deletes what this call staged before it is passed on, so a
 * failed request leaves nothing behind.
 */
export async function stageSources(sources: readonly FileSource[], deps: StageSourcesDeps): Promise<Array<StagedFile | RefusedFile>> {
  const files: Array<StagedFile | RefusedFile> = [];
  try {
    for (const [position, source] of sources.entries()) files.push(await stageSource(source, position, deps));
  } catch (error) {
    await discardStaged(deps.storage, files.flatMap((file) => (file.kind === 'staged' ? [file.stagedKey] : [])));
    throw error;
  }
  return files;
}

async function stageSource(source: FileSource, position: number, deps: StageSourcesDeps): Promise<StagedFile | RefusedFile> {
  const originalFilename = sanitizeOriginalFilename(source.filename);
  const file = { originalFilename, declaredType: source.declaredType, key: deps.stagingKey(position) };
  if (source.kind === 'inline') return stageUpload(Readable.from([source.content]), file, deps);
  try {
    const stream = await openFileUrl(source.url, deps.filePolicy, { headers: source.headers });
    return await stageUpload(stream, file, { ...deps, cutOffSource: true });
  } catch (error) {
    if (!(error instanceof FileUrlRefusedError)) throw error;
    await deps.storage.delete(file.key).catch(() => undefined);
    return { kind: 'refused', originalFilename, declaredType: source.declaredType, code: 'URL_REFUSED', message: error.message, bytes: 0 };
  }
}
