import { randomBytes } from 'node:crypto';
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

/** A small but real PDF: header, one empty page, trailer. `filler` bytes make it as large as a test needs. */
export function makePdf(marker: string, filler = 0): Buffer {
  const body = `%PDF-1.7\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n% ${marker}\n`;
  return Buffer.concat([Buffer.from(body), Buffer.alloc(filler, 0x20), Buffer.from('trailer <</Root 1 0 R>>\n%%EOF\n')]);
}

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
