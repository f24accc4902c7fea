/**
 * Real files for the demo documents, so a newcomer can open, download and review them: a one-page PDF naming
 * the document type and the player, or, for a document sent as a photo, a small image of its type. Each is
 * encrypted and stored like an upload (its own data key), and the row gets the file's true SHA-256, size,
 * type and envelope.
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { DOC_TYPE_LABELS, type TDocType } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import { onePagePdf } from '../files';
import { startEncryption } from '../platform/crypto/envelope';
import type { DemoData } from './generation-state';

/** Where the demo's files go: the configured storage, sealed with the master key. */
export interface DemoFileStore {
  storage: Storage;
  masterKey: Buffer;
}

/** Files written at once: enough to keep the disk (or S3) busy, few enough not to flood it. */
const WRITES_AT_ONCE = 16;

type ImageFormat = 'jpeg' | 'png';

const typeLabel = (docType: TDocType | null | undefined): string => (docType ? DOC_TYPE_LABELS[docType] : 'Document');

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A 480 × 320 card reading "DEMO — <type>": drawn once per type and format, then shared by every photo of it. */
function imageSvg(label: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">` +
      `<rect width="480" height="320" fill="#f8fafc"/>` +
      `<rect x="10" y="10" width="460" height="300" fill="none" stroke="#94a3b8" stroke-width="4" stroke-dasharray="12 8"/>` +
      `<text x="240" y="140" font-family="sans-serif" font-size="30" font-weight="bold" text-anchor="middle" fill="#0f172a">${escapeXml(`DEMO — ${label}`)}</text>` +
      `<text x="240" y="190" font-family="sans-serif" font-size="18" text-anchor="middle" fill="#475569">A sample photo, not a real document</text>` +
      `</svg>`,
  );
}

const images = new Map<string, Promise<Buffer>>();

/** The shared image of a type in a format, rendered on first use and kept for the life of the process. */
function typeImage(label: string, format: ImageFormat): Promise<Buffer> {
  const key = `${format}:${label}`;
  let image = images.get(key);
  if (!image) {
    const pipeline = sharp(imageSvg(label));
    image = (format === 'jpeg' ? pipeline.jpeg({ quality: 75 }) : pipeline.png({ compressionLevel: 6 })).toBuffer();
    images.set(key, image);
  }
  return image;
}

/**
 * The shared image made this document's own, cheaply: a comment naming the document goes into the file
 * (a JPEG COM segment after the start marker; a PNG tEXt chunk after the header), so no two files are alike.
 */
function withComment(image: Buffer, format: ImageFormat, comment: string): Buffer {
  const text = Buffer.from(comment, 'latin1');
  if (format === 'jpeg') {
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(text.length + 2, 2);
    return Buffer.concat([image.subarray(0, 2), segment, text, image.subarray(2)]);
  }
  // Signature (8) and the IHDR chunk (4 length + 4 type + 13 data + 4 CRC) come first.
  const afterHeader = 8 + 25;
  const typeAndData = Buffer.concat([Buffer.from('tEXtComment\0', 'latin1'), text]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(typeAndData.length - 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([image.subarray(0, afterHeader), length, typeAndData, crc, image.subarray(afterHeader)]);
}

type DemoDocument = DemoData['documents'][number];

/** 2016-04-30 as 04/30/2016, the way a US form prints it; empty stays empty. */
const usDate = (iso: string): string => (iso.length === 10 ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : iso);

/** The file of one demo document: its bytes and type, as its name (and so the generated mime) says. */
async function demoFile(document: DemoDocument, player: { name: string; birthDate: string }): Promise<{ bytes: Buffer; mime: string }> {
  const label = typeLabel(document.docType);
  const comment = `Clearbase demo document ${document.id ?? ''}`;
  if (document.mime === 'image/jpeg' || document.mime === 'image/png') {
    const format: ImageFormat = document.mime === 'image/jpeg' ? 'jpeg' : 'png';
    return { bytes: withComment(await typeImage(label, format), format, comment), mime: document.mime };
  }
  const uploaded = document.uploadedAt instanceof Date ? document.uploadedAt.toISOString().slice(0, 10) : '';
  // What reading finds in it, as in a real document of its type: the child's name and date of birth, an exam's date.
  const facts = [`Name of child: ${player.name}`, `Date of birth: ${usDate(player.birthDate)}`, ...(document.docType === 'medical' && uploaded ? [`Date of exam: ${usDate(uploaded)}`] : [])];
  const pdf = onePagePdf(
    [
      `DEMO — ${label} — ${player.name}`,
      ...facts,
      `Player ${document.playerId}, sent ${uploaded} as "${document.originalFilename}".`,
      'A generated sample file, not a real document.',
      comment,
    ],
    22,
  );
  return { bytes: pdf, mime: 'application/pdf' };
}

/**
 * Gives every document of the chunk a real file: generated, encrypted with its own data key, written to the
 * storage (a few at a time) under its stored path, whose hash part then names the real file's hash. The rows
 * are changed in place to match the stored file, so they are written only after this resolves.
 */
export async function attachDemoFiles(chunk: DemoData, store: DemoFileStore): Promise<void> {
  const players = new Map(chunk.players.map((player) => [player.id, { name: `${player.firstName} ${player.lastName}`, birthDate: player.birthDate }]));
  let next = 0;
  const writeNext = async (): Promise<void> => {
    for (let index = next++; index < chunk.documents.length; index = next++) {
      const document = chunk.documents[index];
      if (!document?.storageKey) continue;
      const file = await demoFile(document, players.get(document.playerId) ?? { name: 'Demo Player', birthDate: '' });
      const encryption = startEncryption(store.masterKey);
      const ciphertext = encryption.update(file.bytes);
      const sealed = encryption.finish();
      const key = document.storageKey.replace(/_[0-9a-f]{8}(\.[a-z0-9]+)$/, `_${sealed.sha256.slice(0, 8)}$1`);
      await store.storage.put(key, ciphertext);
      Object.assign(document, {
        storageKey: key,
        storedPath: key,
        storageDriver: store.storage.driver,
        mime: file.mime,
        bytes: sealed.bytes,
        fileSha256: sealed.sha256,
        wrappedKey: sealed.wrappedKey,
        iv: sealed.iv,
        authTag: sealed.authTag,
      });
    }
  };
  await Promise.all(Array.from({ length: WRITES_AT_ONCE }, writeNext));
}
