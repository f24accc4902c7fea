import { z } from 'zod';
import { ZDivision, ZDocType, ZDocumentStatus } from './domain';

/**
 * The division of the player a document event is about: a connection limited to some divisions gets only
 * their events. Absent or null (a document not yet matched to a registration), only unlimited connections get it.
 */
const eventDivision = ZDivision.nullable().optional();

/** Messages the server sends on /ws, so open screens update without polling. */
export const ZConnectedMessage = z.object({
  type: z.literal('connected'),
  connectionId: z.string(),
  data: z.object({ message: z.string() }),
});
export const ZDocumentUploadedMessage = z.object({
  type: z.literal('document_uploaded'),
  data: z.object({ documentId: z.string(), playerName: z.string(), docType: ZDocType.nullable(), division: eventDivision }),
});
export const ZDocumentStatusUpdatedMessage = z.object({
  type: z.literal('document_status_updated'),
  data: z.object({
    documentId: z.string(),
    status: ZDocumentStatus,
    /** Still processing, now shown as waiting for a virus scan that failed ('Scan failed, will retry'). */
    scanFailed: z.boolean().optional(),
    division: eventDivision,
  }),
});
/** A stored document was read (its facts and checks are ready): screens showing it refresh, without a toast. */
export const ZDocumentReadMessage = z.object({
  type: z.literal('document_read'),
  data: z.object({ documentId: z.string(), division: eventDivision }),
});
export const ZSystemStatusMessage = z.object({
  type: z.literal('system_status'),
  data: z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() }),
});

export const ZServerMessage = z.discriminatedUnion('type', [
  ZConnectedMessage,
  ZDocumentUploadedMessage,
  ZDocumentStatusUpdatedMessage,
  ZDocumentReadMessage,
  ZSystemStatusMessage,
]);
export type TServerMessage = z.infer<typeof ZServerMessage>;

/** Messages the browser sends on /ws. */
export const ZClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping'), timestamp: z.number() }),
]);
export type TClientMessage = z.infer<typeof ZClientMessage>;

/** Live connection timing: how often the client pings, how long it waits to reconnect, and the close codes. */
export const LIVE_PING_INTERVAL_MS = 30_000;
export const LIVE_RECONNECT_DELAY_MS = 3_000;
export const LIVE_CLEAN_CLOSE_CODE = 1000;
/** Close code the server uses when the session is gone; the client must not reconnect on it. */
export const LIVE_UNAUTHORIZED_CLOSE_CODE = 4401;
