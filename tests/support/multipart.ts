import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { signBody } from '../../src/server/intake/form/form-webhook';

export type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer; contentType?: string };

/** A multipart/form-data body built by hand, so tests control every byte (and can truncate it). */
export function buildMultipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----clearbase${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(part.content, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A small but real PDF that every viewer (and intake's decoder) opens: one page showing `marker`.
 * `filler` bytes, in a comment after the header, make it exactly that much larger.
 */
export function makePdf(marker: string, filler = 0): Buffer {
  return writePdf(Buffer.concat([Buffer.from('%PDF-1.7\n%'), Buffer.alloc(filler, 0x20), Buffer.from('\n')]), onePageObjects(marker));
}

/** The objects of a one-page PDF showing `marker` (catalog 1, pages 2, page 3, its content 4, its font 5). */
export function onePageObjects(marker: string): Buffer[] {
  const content = Buffer.from(`BT /F1 18 Tf 72 720 Td (${marker.replace(/[()\\]/g, '')}) Tj ET`, 'utf8');
  return [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
    pdfStream(`/Length ${content.length}`, content),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
}

/** A stream object: its dictionary, then its bytes. */
export const pdfStream = (dictionary: string, bytes: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`<< ${dictionary} >>\nstream\n`), bytes, Buffer.from('\nendstream')]);

/**
 * A PDF file of `header` and the `objects` (numbered from 1, the first the catalog), with its cross-reference
 * table and trailer. Offsets and startxref are written to a fixed width, so a larger header or object changes
 * the file's length by exactly its own growth.
 */
export function writePdf(header: Buffer, objects: readonly Buffer[]): Buffer {
  const parts = [header];
  let length = header.length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const piece = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    parts.push(piece);
    length += piece.length;
  });
  const pad = (n: number) => String(n).padStart(10, '0');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${pad(o)} 00000 n \n`).join('')}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${pad(length)}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

/**
 * A real PNG (8-bit RGB, unfiltered rows, stored without compression when `stored`) of `width` × `height`
 * pixels from a seed: about width × height × 3 bytes stored, so a test can make one as large as it needs.
 */
export function makePng(width: number, height: number, seed = 1, options: { stored?: boolean } = {}): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  let state = seed >>> 0 || 1;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    rows[row] = 0; // filter: none
    for (let x = 1; x <= width * 3; x++) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      rows[row + x] = state >>> 24;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: options.stored ? 0 : 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The first 16 bytes of a PNG (signature and the start of IHDR): sniffed as a PNG, but no image. */
export const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** Posts a form submission to the webhook the way a form provider does: multipart, signed with `secret`. */
export function injectSignedForm(app: FastifyInstance, parts: Part[], secret: string) {
  const { body, contentType } = buildMultipart(parts);
  return app.inject({
    method: 'POST',
    url: '/api/intake/form',
    payload: body,
    headers: { 'content-type': contentType, 'x-clearbase-signature': signBody(secret, body) },
  });
}
