import type { TJobPayload } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import { recordAuditEvent } from '../audit';
import type { LivePublisher } from '../live';
import { decryptToBuffer } from '../platform/crypto/envelope';
import { sealSecret } from '../platform/crypto/secret-box';
import type { Db } from '../platform/db/client';
import type { JobHandler } from '../platform/jobs/job-runner';
import type { Logger } from '../platform/logger';
import { isReadable } from './checks';
import { extractFacts } from './facts';
import { ReadingError } from './reader';
import { failReading, findReadingWork, removeReading, saveReading, setTypeFromContent } from './reading.repository';
import type { DocumentReader } from './types';
import { wordHashes, type WordKey } from './word-index';

export type ReadDocumentDeps = {
  db: Db;
  storageFor: (driver: 'local' | 's3') => Storage;
  masterKey: Buffer;
  wordKey: WordKey;
  reader: DocumentReader;
  live: LivePublisher;
  log: Logger;
  now?: () => Date;
};

/** What staff read when a document could not be read for a reason that is not the file's. */
const COULD_NOT_READ = 'This document could not be read on this server; review it by eye.';

/**
 * Reads one stored document: decrypts its file in memory, reads its text in the reader process (pdf.js or
 * OCR), finds the facts in it, and records the text sealed like the file, the keyed hashes of its words and
 * the facts. A document of undetected type still under review takes the type its content shows. A file the
 * reader cannot read is recorded as failed at once (staff review it by eye); any other error is retried, and
 * recorded as failed after the last attempt. Nothing of the text reaches the log.
 */
export function createReadDocumentHandler(deps: ReadDocumentDeps): JobHandler<TJobPayload<'read-document'>> {
  const now = deps.now ?? (() => new Date());
  return async ({ documentId }, job) => {
    const work = await findReadingWork(deps.db, documentId);
    if (!work || work.state !== 'waiting') return { kind: 'done' };
    if (work.fileGone || !work.storageKey || !work.storageDriver || !work.wrappedKey || !work.iv || !work.authTag) {
      await removeReading(deps.db, documentId);
      return { kind: 'done' };
    }
    let found;
    try {
      const sealed = await deps.storageFor(work.storageDriver).get(work.storageKey);
      const bytes = await decryptToBuffer(deps.masterKey, { wrappedKey: work.wrappedKey, iv: work.iv, authTag: work.authTag }, sealed);
      found = await deps.reader.read({ bytes, mime: work.mime ?? 'application/octet-stream' });
    } catch (error) {
      if (error instanceof ReadingError) {
        await failReading(deps.db, documentId, error.message, now());
        deps.log.info({ documentId }, 'document could not be read; it is reviewed by eye');
        return { kind: 'done' };
      }
      if (job.attempt >= 3) {
        await failReading(deps.db, documentId, COULD_NOT_READ, now());
        deps.log.error({ err: error, documentId }, 'reading a document failed on every attempt');
        return { kind: 'done' };
      }
      throw error;
    }
    const extracted = extractFacts(found);
    const readable = isReadable(found);
    const typeSet = await deps.db.transaction(async (tx) => {
      const saved = await saveReading(tx, documentId, {
        text: sealSecret(deps.masterKey, found.text),
        wordHashes: wordHashes(deps.wordKey, found.text),
        extracted,
        readable,
        method: found.method,
        seconds: found.seconds,
        pages: found.pages,
        readAt: now(),
      });
      if (!saved) return false;
      const setType = extracted.docType !== null && work.docType === null && (await setTypeFromContent(tx, documentId, extracted.docType));
      await recordAuditEvent(tx, {
        actor: 'system',
        action: 'document.read',
        subjectType: 'document',
        subjectId: documentId,
        detail: { method: found.method, pages: found.pages, readable, docType: extracted.docType, typeSet: setType },
      });
      return setType;
    });
    deps.log.debug({ documentId, method: found.method, pages: found.pages, seconds: Math.round(found.seconds * 10) / 10, typeSet }, 'document read');
    deps.live.publish({ type: 'document_read', data: { documentId, division: work.division } });
    return { kind: 'done' };
  };
}
