import type PDFDocument from 'pdfkit';

/** US Letter in points, with a half-inch margin: each photo is scaled to fit inside it, centred. */
const PAGE: [number, number] = [612, 792];
const MARGIN = 36;

/**
 * Photos of one document's pages (JPEG or PNG, already checked by their bytes and decoders) as one PDF, a
 * page each, in the order sent. A JPEG is embedded as it is (no re-encoding); a PNG's pixels are compressed
 * again. No text, metadata or name of the family is written into it.
 */
export async function photosToPdf(photos: readonly Buffer[]): Promise<Buffer> {
  // Loaded by the first photos sent, not with the server (pdfkit and its font code are some 25 MB).
  const Pdf: typeof PDFDocument = (await import('pdfkit')).default;
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new Pdf({ size: PAGE, margin: MARGIN, autoFirstPage: false, info: { Producer: 'Clearbase', Creator: 'Clearbase' } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      for (const photo of photos) {
        doc.addPage();
        doc.image(photo, MARGIN, MARGIN, { fit: [PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN], align: 'center', valign: 'center' });
      }
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
