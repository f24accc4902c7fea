import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { AddressObject, AttachmentStream, MessageText } from 'mailparser';
import { toStorableText } from '../../../contract';
import type { Storage } from '../../adapters/storage/port';
import { AppError } from '../../platform/errors';
import { stageUpload } from '../stage-file';
import { sanitizeOriginalFilename } from '../../files';
import { discardStaged, type RefusedFile, type StagedFile } from '../../pipeline';
import type { MailPartInfo, MailSummary } from './mail-fields';
import { IMAGE_HEAD_BYTES, readImageSize } from './mail-image-size';
import { createUudecoder, extractUuencodedFiles, isUuencodedTransfer } from './mail-uudecode';

export type ReadMessage = MessageIdentity & {
  summary: MailSummary;
  /** The Date header, when it is a real date. */
  date: Date | null;
  rawBytes: number;
  /** Every attachment-like part mailparser found, in message order, then the files uuencoded in the text. */
  parts: MailPartInfo[];
  /** What became of each part, by the same index: staged (sealed into staging) or refused with a reason. */
  files: Array<StagedFile | RefusedFile>;
};

/** What a mail is, as the mailbox tells one mail from another (mail-identity.ts). */
export type MessageIdentity = {
  /** The Message-ID header without its angle brackets' surrounding space, or null when the mail has none. */
  messageId: string | null;
  /** SHA-256 of the raw message: the identity of a mail without a Message-ID. */
  rawSha256: string;
  /** SHA-256 of what the mail says, whatever its headers: its subject and its attachments (contentSha256). */
  contentSha256: string;
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
 *
 * uuencoded files are decoded on the way (mail-uudecode.ts): a part sent with a uuencode transfer encoding
 * as it streams, a `begin` … `end` block in the text as one more part after the others.
 */
export async function readMessage(raw: Readable, deps: ReadMessageDeps): Promise<ReadMessage> {
  const files: Array<StagedFile | RefusedFile> = [];
  let count = 0;
  const discard = () => discardStaged(deps.storage, Array.from({ length: count }, (_, index) => deps.stagingKey(index)));
  try {
    const read = await streamMessage(raw, deps.maxMessageBytes, async (index, info, content) => {
      count = Math.max(count, index + 1);
      files[index] = await stageUpload(
        content,
        { originalFilename: sanitizeOriginalFilename(info.filename ?? ''), declaredType: null, key: deps.stagingKey(index) },
        { storage: deps.storage, masterKey: deps.masterKey, maxFileBytes: deps.maxFileBytes },
      );
    });
    return { ...read, files };
  } catch (error) {
    await discard();
    throw error;
  }
}

/**
 * What the mailbox needs to tell whether it has seen a mail: its Message-ID and the hashes of its content,
 * read as readMessage reads them (the same decoding, the same hashes) but without staging anything.
 */
export async function identifyMessage(raw: Readable, maxMessageBytes: number): Promise<MessageIdentity> {
  const { messageId, rawSha256, contentSha256 } = await streamMessage(raw, maxMessageBytes, async (_index, _info, content) => {
    await finished(content.resume());
  });
  return { messageId, rawSha256, contentSha256 };
}

/**
 * A mail's content identity: SHA-256 over its subject (whitespace collapsed) and the SHA-256 of each of its
 * attachments' decoded bytes, in message order. Not the raw message's hash: a copy of the same mail delivered
 * again (a forwarder, a second copy to another address of ours, a client that re-sends) differs in its
 * Received, Date, DKIM and X- headers and in its MIME boundaries and transfer encodings, yet is the same mail.
 * Not the body text either: relays append footers and re-wrap or re-encode it. What the sender chose (the
 * subject) and what we store (the files' bytes) are what make it the same mail or another.
 */
export function contentSha256(subject: string | null, partSha256s: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`subject:${(subject ?? '').replace(/\s+/g, ' ').trim()}\n`);
  for (const part of partSha256s) hash.update(`part:${part}\n`);
  return hash.digest('hex');
}

type StreamedMessage = Omit<ReadMessage, 'files'>;

/**
 * The one pass over a raw message both readers share: headers, text, and each part handed to `onPart` as a
 * stream of its decoded bytes, one at a time, in message order, with its size, SHA-256 and (for an image)
 * dimensions measured on the way. Rejects with MailTooLargeError past `maxMessageBytes`, MailReadError when
 * the message cannot be read to its end.
 */
async function streamMessage(
  raw: Readable,
  maxMessageBytes: number,
  onPart: (index: number, info: MailPartInfo, content: Readable) => Promise<void>,
): Promise<StreamedMessage> {
  // Loaded by the first e-mail read, not with the server: a server without a mailbox never needs it.
  const { MailParser, simpleParser } = await import('mailparser');
  const hash = createHash('sha256');
  let rawBytes = 0;
  /** The start of the message, for its headers should it prove too large (headerBlockOf). */
  const start: Buffer[] = [];
  let startBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const room = maxMessageBytes - rawBytes;
      rawBytes += chunk.length;
      if (startBytes < HEADER_BLOCK_MAX_BYTES) {
        start.push(chunk.subarray(0, HEADER_BLOCK_MAX_BYTES - startBytes));
        startBytes += Math.min(chunk.length, HEADER_BLOCK_MAX_BYTES - startBytes);
      }
      if (chunk.length > room) {
        // Hashed up to the limit exactly, so the same mail gives the same hash however its bytes were cut.
        hash.update(chunk.subarray(0, Math.max(room, 0)));
        callback(new AppError('PAYLOAD_TOO_LARGE', `The e-mail is larger than ${Math.round(maxMessageBytes / 1_048_576)} MB.`));
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
  const partSha256s: string[] = [];
  const handling: Array<Promise<void>> = [];
  /** Part streams, so a failure can end the one in progress: mailparser leaves it open otherwise. */
  const contents: Readable[] = [];

  /** Measures one part as it streams to `onPart`; `release` lets the parser read on once it is handled. */
  const handle = (info: MailPartInfo, content: Readable, release: () => void) => {
    const index = parts.length;
    parts.push(info);
    const partHash = createHash('sha256');
    const head: Buffer[] = [];
    let headBytes = 0;
    let size = 0;
    content.on('data', (chunk: Buffer) => {
      size += chunk.length;
      partHash.update(chunk);
      if (headBytes < IMAGE_HEAD_BYTES) {
        head.push(chunk.subarray(0, IMAGE_HEAD_BYTES - headBytes));
        headBytes += Math.min(chunk.length, IMAGE_HEAD_BYTES - headBytes);
      }
    });
    handling.push(
      onPart(index, info, content)
        .then(() => {
          info.size = size;
          info.dimensions = readImageSize(Buffer.concat(head));
          partSha256s[index] = partHash.digest('hex');
        })
        .finally(release),
    );
  };

  parser.on('headers', (headers: Map<string, unknown>) => {
    ({ subject, messageId, fromAddress, date } = headerFields(headers));
  });
  parser.on('data', (data: AttachmentStream | MessageText) => {
    if (data.type === 'text') {
      // Old mail programs put uuencoded files in the text itself: each becomes a part of its own.
      const own = extractUuencodedFiles(data.text ?? '');
      text = data.text === undefined ? null : storable(own.text);
      html = storable(typeof data.html === 'string' ? data.html : null);
      for (const file of own.files) {
        const content = Readable.from([file.content]);
        contents.push(content);
        handle({ filename: storable(file.filename), contentType: 'application/octet-stream', disposition: 'attachment', contentId: null, size: 0, dimensions: null }, content, () => undefined);
      }
      return;
    }
    const info: MailPartInfo = {
      filename: storable(data.filename ?? null),
      contentType: toStorableText(data.contentType),
      disposition: data.contentDisposition === 'attachment' || data.contentDisposition === 'inline' ? data.contentDisposition : null,
      contentId: storable(data.cid ?? null),
      size: 0,
      dimensions: null,
    };
    const source = data.content;
    if (!(source instanceof Readable)) throw new Error('mailparser gave an attachment without a readable stream');
    contents.push(source);
    let content: Readable = source;
    if (isUuencodedTransfer(stringHeader(data.headers.get('content-transfer-encoding')))) {
      // mailparser passes a uuencoded part on as its encoded text; its `begin` line may name the file.
      const decoder = createUudecoder((name) => {
        if (!info.filename?.trim() && name.trim()) info.filename = storable(name);
      });
      source.on('error', (error) => decoder.destroy(error));
      content = source.pipe(decoder);
    }
    // One at a time: the parser waits for release() before it reads on.
    handle(info, content, () => data.release());
  });

  try {
    await Promise.all([pipeline(raw, meter, parser), ...handling]);
    // Parts seen late in the stream start after pipeline() resolved, so wait for every one.
    await Promise.all(handling);
  } catch (error) {
    // The part being handled when the mail failed would wait for more bytes for ever.
    for (const content of contents) if (!content.readableEnded) content.destroy(error instanceof Error ? error : new Error(String(error)));
    await Promise.allSettled(handling);
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') {
      // Read from the start of the message itself: the parser may not have got to its headers before the cut.
      const headers = headerFields((await simpleParser(headerBlockOf(Buffer.concat(start)))).headers);
      // What was read of it stands for its content: reading it again stops at the same byte.
      const rawSha256 = hash.digest('hex');
      throw new MailTooLargeError(error.message, { ...headers, rawSha256, contentSha256: rawSha256 });
    }
    throw new MailReadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  return {
    summary: { subject, text, html, fromAddress },
    messageId,
    date,
    rawSha256: hash.digest('hex'),
    contentSha256: contentSha256(subject, partSha256s),
    rawBytes,
    parts,
  };
}

/**
 * The message is larger than any handful of documents can be. What its headers say is kept, so it can be
 * recorded as failed (reading it again would only fail again).
 */
export class MailTooLargeError extends Error {
  constructor(
    message: string,
    readonly headers: MessageIdentity & { subject: string | null; fromAddress: string | null; date: Date | null },
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

/** More than any real header block; a message whose headers run longer is read as far as this. */
const HEADER_BLOCK_MAX_BYTES = 256 * 1024;

/** The header block of a message's start: up to the first empty line. */
function headerBlockOf(start: Buffer): Buffer {
  const text = start.toString('latin1');
  const end = /\r?\n\r?\n/.exec(text);
  return end ? start.subarray(0, end.index + end[0].length) : start;
}

/** What the mailbox keeps of a message's headers, made storable. */
function headerFields(headers: Map<string, unknown>): { subject: string | null; messageId: string | null; fromAddress: string | null; date: Date | null } {
  const from = headers.get('from') as AddressObject | undefined;
  const when = headers.get('date');
  return {
    subject: storable(stringHeader(headers.get('subject'))),
    messageId: storable(stringHeader(headers.get('message-id')))?.trim() || null,
    fromAddress: storable(from?.value?.[0]?.address ?? null)?.trim().toLowerCase() || null,
    date: when instanceof Date && !Number.isNaN(when.getTime()) ? when : null,
  };
}

function stringHeader(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
