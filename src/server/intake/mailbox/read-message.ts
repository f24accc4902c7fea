import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MailParser, type AddressObject, type AttachmentStream, type MessageText } from 'mailparser';
import { toStorableText } from '../../../contract';
import type { Storage } from '../../adapters/storage/port';
import { AppError } from '../../platform/errors';
import { stageUpload } from '../stage-file';
import { sanitizeOriginalFilename } from '../../files';
import { discardStaged, type RefusedFile, type StagedFile } from '../../pipeline';
import type { MailPartInfo, MailSummary } from './mail-fields';

export type ReadMessage = {
  summary: MailSummary;
  /** The Message-ID header without its angle brackets' surrounding space, or null when the mail has none. */
  messageId: string | null;
  /** The Date header, when it is a real date. */
  date: Date | null;
  /** SHA-256 of the raw message: the identity of a mail without a Message-ID. */
  rawSha256: string;
  rawBytes: number;
  /** Every attachment-like part mailparser found, in message order. */
  parts: MailPartInfo[];
  /** What became of each part, by the same index: staged (sealed into staging) or refused with a reason. */
  files: Array<StagedFile | RefusedFile>;
};

export type ReadMessageDeps = {
  storage: Storage;
  masterKey: Buffer;
  maxFileBytes: number;
  /** Where part `index` is staged. */
  stagingKey(index: number): string;
  /** A raw message longer than this is refused as a whole (it cannot be a handful of documents). */
  maxMessageBytes: number;
};

/**
 * Reads one raw message as it streams from the mailbox: headers and text for the player's details, and
 * each attachment straight into staging through the same sealer as a form upload (size cap, type by
 * magic bytes, SHA-256 + AES-256-GCM). Nothing of the message is held whole in memory but its text.
 * A message cut off mid-way (the connection dropped) rejects, and whatever it had staged is deleted.
 */
export async function readMessage(raw: Readable, deps: ReadMessageDeps): Promise<ReadMessage> {
  const hash = createHash('sha256');
  let rawBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      rawBytes += chunk.length;
      if (rawBytes > deps.maxMessageBytes) {
        callback(new AppError('PAYLOAD_TOO_LARGE', `The e-mail is larger than ${Math.round(deps.maxMessageBytes / 1_048_576)} MB.`));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });

  const parser = new MailParser({ skipImageLinks: true });
  let subject: string | null = null;
  let fromAddress: string | null = null;
  let messageId: string | null = null;
  let date: Date | null = null;
  let text: string | null = null;
  let html: string | null = null;
  const parts: MailPartInfo[] = [];
  const files: Array<StagedFile | RefusedFile> = [];
  const staging: Array<Promise<void>> = [];
  /** Attachment streams, so a failure can end the one in progress: mailparser leaves it open otherwise. */
  const contents: Readable[] = [];

  parser.on('headers', (headers: Map<string, unknown>) => {
    subject = storable(stringHeader(headers.get('subject')));
    messageId = storable(stringHeader(headers.get('message-id')))?.trim() || null;
    const from = headers.get('from') as AddressObject | undefined;
    fromAddress = storable(from?.value?.[0]?.address ?? null)?.trim().toLowerCase() || null;
    const when = headers.get('date');
    date = when instanceof Date && !Number.isNaN(when.getTime()) ? when : null;
  });
  parser.on('data', (data: AttachmentStream | MessageText) => {
    if (data.type === 'text') {
      text = storable(data.text ?? null);
      html = storable(typeof data.html === 'string' ? data.html : null);
      return;
    }
    const index = parts.length;
    const info: MailPartInfo = {
      filename: storable(data.filename ?? null),
      contentType: toStorableText(data.contentType),
      disposition: data.contentDisposition === 'attachment' || data.contentDisposition === 'inline' ? data.contentDisposition : null,
      contentId: storable(data.cid ?? null),
      size: 0,
    };
    parts.push(info);
    const content = data.content;
    if (!(content instanceof Readable)) throw new Error('mailparser gave an attachment without a readable stream');
    contents.push(content);
    let size = 0;
    content.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    // One at a time: the parser waits for release() before it reads on.
    staging.push(
      stageUpload(
        content,
        { originalFilename: sanitizeOriginalFilename(info.filename ?? ''), declaredType: null, key: deps.stagingKey(index) },
        { storage: deps.storage, masterKey: deps.masterKey, maxFileBytes: deps.maxFileBytes },
      )
        .then((file) => {
          files[index] = file;
          info.size = size;
        })
        .finally(() => data.release()),
    );
  });

  const discard = () => discardStaged(deps.storage, parts.map((_, index) => deps.stagingKey(index)));
  try {
    await Promise.all([pipeline(raw, meter, parser), ...staging]);
    // Attachments seen late in the stream start after pipeline() resolved, so wait for every one.
    await Promise.all(staging);
  } catch (error) {
    // The attachment being staged when the mail failed would wait for more bytes for ever.
    for (const content of contents) if (!content.readableEnded) content.destroy(error instanceof Error ? error : new Error(String(error)));
    await Promise.allSettled(staging);
    await discard();
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') {
      throw new MailTooLargeError(error.message, { messageId, subject, fromAddress, date, rawSha256: hash.digest('hex') });
    }
    throw new MailReadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  return {
    summary: { subject, text, html, fromAddress },
    messageId,
    date,
    rawSha256: hash.digest('hex'),
    rawBytes,
    parts,
    files,
  };
}

/**
 * The message is larger than any handful of documents can be. What its headers say is kept, so it can be
 * recorded as failed (reading it again would only fail again).
 */
export class MailTooLargeError extends Error {
  constructor(
    message: string,
    readonly headers: { messageId: string | null; subject: string | null; fromAddress: string | null; date: Date | null; rawSha256: string },
  ) {
    super(message);
    this.name = 'MailTooLargeError';
  }
}

/** The message could not be read to its end (the connection dropped, the stream failed): try again later. */
export class MailReadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`The e-mail could not be read to its end: ${message}`, options);
    this.name = 'MailReadError';
  }
}

/**
 * Mail text made storable: NUL characters dropped, half characters replaced with U+FFFD. An encoded header
 * or a badly converted body can hold them, and a database column cannot. A form provider is refused with
 * the field's name and can send again; a parent who e-mailed cannot fix what their mail program wrote, and
 * refusing the mail would lose documents over an invisible character. So the mail is kept, with the text
 * as near as it can be to what was sent, and whatever it lacks (a player name) is judged as for any mail.
 */
function storable(text: string | null): string | null {
  return text === null ? null : toStorableText(text);
}

function stringHeader(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
