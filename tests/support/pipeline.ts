import type { Db } from '../../src/server/platform/db/client';
import { findDocument, type DocumentRow } from '../../src/server/documents/documents.repository';
import type { NewSeason } from '../../src/server/seasons/seasons.repository';

export const SPRING_2025: NewSeason = { id: 'spring-2025', name: 'Spring Ball 2025', kind: 'Spring Ball', year: 2025, startsOn: '2025-03-01', endsOn: '2025-06-30' };
export const FALL_2025: NewSeason = { id: 'fall-2025', name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true };

/** Waits until the pipeline is done with a document: out of `processing` and its staging object removed. */
export async function waitForSettledDocument(db: Db, id: string, timeoutMs = 20_000): Promise<DocumentRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const document = await findDocument(db, id);
    if (document && document.status !== 'processing' && document.stagedKey === null) return document;
    if (Date.now() > deadline) throw new Error(`document ${id} did not settle (still ${document?.status ?? 'missing'})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
