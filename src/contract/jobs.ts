import { z } from 'zod';
import { ZNotificationChannel } from './domain';

/** One message of a queued send, rendered when it was queued. */
export const ZQueuedMessage = z.object({
  historyId: z.string(),
  channel: ZNotificationChannel,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /**
   * The upload links the message carries: each `marker` in its text and HTML is replaced, right before the
   * message goes to the mail server, by a link issued then for that player and season (on `origin`). The
   * payload never holds a link's token.
   */
  links: z.array(z.object({ marker: z.string(), playerId: z.string(), seasonId: z.string(), origin: z.string() })).optional(),
});
export type TQueuedMessage = z.infer<typeof ZQueuedMessage>;

/**
 * Every background job queue and the payload its jobs carry. A payload is written by one part of the server
 * and read back, perhaps by another instance or a later version, by the queue's handler: the job runner
 * checks it against this schema before the handler sees it, and a payload that does not match fails the job
 * with the reason instead of reaching the handler.
 */
export const JOB_PAYLOADS = {
  /** Scan, name, store and record one staged document. */
  'process-document': z.object({ documentId: z.string(), extension: z.string() }),
  /** Deliver the still-pending messages of a queued or scheduled send. */
  'notification-send': z.object({ messages: z.array(ZQueuedMessage) }),
  /**
   * Tell the family which files of a submission were refused at intake, and why: queued with the submission,
   * sent once (the File Not Accepted template).
   */
  'refused-files-notice': z.object({
    submissionId: z.string(),
    files: z.array(z.object({ filename: z.string(), reason: z.string() })).min(1),
  }),
  /** The daily removal of documents past their retention date. */
  retention: z.object({}),
  /** The hourly sweep of automatic reminders: each run sends those due and schedules the next. */
  reminders: z.object({}),
  /** The hourly move of the day requirements are judged on: lapsed approvals stop counting. */
  'requirements-day': z.object({}),
  /** Read one stored document's text (its PDF text, or OCR) and find the facts in it; a lane of its own. */
  'read-document': z.object({ documentId: z.string() }),
  /** The daily removal of verified birth certificates' files, the seasons' "remove files after" days after verification. */
  'minimise-verified-files': z.object({}),
  /**
   * Delete the stored objects of an erased player, queued in the erasure's transaction: run at once after the
   * commit, and again until every object is gone. Emptied once done, since the keys name the child.
   */
  'erase-files': z.object({ objects: z.array(z.object({ driver: z.enum(['local', 's3']), key: z.string() })) }),
};
export type TJobQueue = keyof typeof JOB_PAYLOADS;
export type TJobPayload<Q extends TJobQueue> = z.infer<(typeof JOB_PAYLOADS)[Q]>;
