import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * A key's fingerprint: an HMAC of a fixed label under the key. It tells one key from another (the backup state
 * is kept for the fingerprint it was confirmed for, so a new key starts unconfirmed) and says nothing of the key.
 */
export const keyFingerprint = (key: Buffer): string => createHmac('sha256', key).update('clearbase master key fingerprint').digest('hex').slice(0, 32);

/** The fingerprint's first characters, printed on the sheet and shown on the panel to match the two. */
export const keyCheckOf = (fingerprint: string): string => fingerprint.slice(0, 8).toUpperCase();

/** The key as it is written in master.key (base64), in groups of four to copy by hand. */
export const keyGroups = (key: Buffer): string[] => key.toString('base64').match(/.{1,4}/g) ?? [];

export type RecoverySheet = {
  key: Buffer;
  /** The installation's address (CLEARBASE_PUBLIC_URL), when it has one: which Clearbase the key belongs to. */
  site: string | undefined;
  /** The day it is printed, in words. */
  printedOn: string;
  keyCheck: string;
};

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer; mono: Buffer } | undefined;
const loadFonts = () =>
  (fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
    // Monospaced, so each character of the key has its own width and 0/O, 1/l/I look different.
    mono: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf')),
  });

const PAGE = { width: 595.28, height: 841.89, margin: 48 };
const WIDTH = PAGE.width - 2 * PAGE.margin;
const INK = '#0f172a';
const MUTED = '#475569';
const RED = '#b91c1c';
const RULE = '#cbd5e1';

const WHAT_IT_IS =
  'Every document Clearbase keeps (birth certificates, medical forms) is stored encrypted. The key below is the one ' +
  'that opens them all. Backups hold the documents still encrypted, on purpose, so without this key a backup cannot ' +
  'be read either. If the server is lost, this sheet is how the league gets its documents back.';

const KEEP_IT_SAFE =
  'Keep this sheet locked away, apart from the backups. Anyone who has it and a backup can read every child’s ' +
  'documents. Do not photograph, scan or e-mail it. If it is lost, ask whoever runs the server to replace the key ' +
  '(npm run rotate-key), then print the new key’s sheet.';

const HOW_TO_USE: Array<{ text: string; command?: string }> = [
  {
    text: 'Type the key into a file named master.key in the new data folder: all on one line, without the spaces, ending with =. Make it readable by the server’s user only:',
    command: 'chmod 600 master.key',
  },
  { text: 'Or give the key to the server as the setting CLEARBASE_MASTER_KEY (again without the spaces).' },
  { text: 'To restore a backup made by npm run backup, name the file holding the key:', command: 'npm run restore -- <archive> --master-key-file <file>' },
  { text: 'Capital and small letters are different characters. The QR code holds the same key, for a phone to read.' },
];

/** The one-page recovery sheet as a PDF: what it is, the key in groups and as a QR code, and how to use it. */
export async function recoverySheetPdf(sheet: RecoverySheet): Promise<Buffer> {
  const { regular, bold, mono } = loadFonts();
  const [Pdf, QRCode] = await Promise.all([import('pdfkit').then((module) => module.default), import('qrcode').then((module) => module.default)]);
  const pdf = new Pdf({
    size: 'A4',
    margin: PAGE.margin,
    lang: 'en',
    info: { Title: 'Clearbase master key: recovery sheet', Author: 'Clearbase', Subject: `Key check ${sheet.keyCheck}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('Regular', regular);
  pdf.registerFont('Bold', bold);
  pdf.registerFont('Mono', mono);

  const x = PAGE.margin;
  let y = PAGE.margin;
  const write = (text: string, options: { size: number; font?: 'Regular' | 'Bold' | 'Mono'; color?: string; width?: number; at?: number; gap?: number }) => {
    pdf.font(options.font ?? 'Regular').fontSize(options.size).fillColor(options.color ?? INK);
    const width = options.width ?? WIDTH;
    pdf.text(text, options.at ?? x, y, { width });
    y += pdf.heightOfString(text, { width }) + (options.gap ?? 6);
  };

  write('Master key recovery sheet', { size: 22, font: 'Bold', gap: 4 });
  if (sheet.site) write(`For the Clearbase at ${sheet.site}`, { size: 10, color: MUTED, gap: 2 });
  write(`Printed ${sheet.printedOn}  ·  Key check ${sheet.keyCheck}`, { size: 10, color: MUTED, gap: 14 });

  write('What this is', { size: 12, font: 'Bold', gap: 3 });
  write(WHAT_IT_IS, { size: 10, gap: 10 });
  const boxTop = y;
  y += 8;
  write(KEEP_IT_SAFE, { size: 10, font: 'Bold', color: RED, width: WIDTH - 20, at: x + 10, gap: 8 });
  pdf.rect(x, boxTop, WIDTH, y - boxTop).lineWidth(1.2).strokeColor(RED).stroke();
  y += 16;

  write('The key', { size: 12, font: 'Bold', gap: 8 });
  const keyTop = y;
  const groups = keyGroups(sheet.key);
  const perLine = 4;
  for (let line = 0; line * perLine < groups.length; line += 1) {
    const text = groups.slice(line * perLine, (line + 1) * perLine).join('  ');
    pdf.font('Mono').fontSize(20).fillColor(INK).text(text, x, y, { lineBreak: false, characterSpacing: 1 });
    y += 30;
  }
  write('Groups of four to copy by hand; the spaces are not part of the key.', { size: 9, color: MUTED });

  const qr = QRCode.create(sheet.key.toString('base64'), { errorCorrectionLevel: 'M' });
  const modules = qr.modules.size;
  const quiet = 2;
  const side = 150;
  const cell = side / (modules + 2 * quiet);
  const qrX = x + WIDTH - side;
  pdf.rect(qrX, keyTop - 6, side, side).fillColor('#ffffff').fill();
  for (let row = 0; row < modules; row += 1) {
    for (let column = 0; column < modules; column += 1) {
      if (qr.modules.get(row, column)) pdf.rect(qrX + (column + quiet) * cell, keyTop - 6 + (row + quiet) * cell, cell, cell);
    }
  }
  pdf.fillColor(INK).fill();
  y = Math.max(y, keyTop - 6 + side) + 16;

  pdf.moveTo(x, y).lineTo(x + WIDTH, y).lineWidth(0.6).strokeColor(RULE).stroke();
  y += 12;
  write('How to use it', { size: 12, font: 'Bold', gap: 6 });
  HOW_TO_USE.forEach((step, i) => {
    const number = `${i + 1}.`;
    pdf.font('Bold').fontSize(10).fillColor(INK).text(number, x, y, { lineBreak: false });
    write(step.text, { size: 10, at: x + 18, width: WIDTH - 18, gap: step.command ? 3 : 8 });
    if (step.command) write(step.command, { size: 10, font: 'Mono', at: x + 18, width: WIDTH - 18, gap: 8 });
  });

  // For whoever files it: where the sheet is kept, written by hand.
  y += 18;
  pdf.moveTo(x, y).lineTo(x + WIDTH, y).lineWidth(0.6).strokeColor(RULE).stroke();
  y += 14;
  write('Kept where, and by whom (write it by hand):', { size: 10, color: MUTED, gap: 30 });
  pdf.moveTo(x, y).lineTo(x + WIDTH, y).lineWidth(0.6).strokeColor(RULE).stroke();

  // Below the bottom margin: without lifting it, pdfkit would start a second page for this line.
  pdf.page.margins.bottom = 0;
  y = PAGE.height - PAGE.margin + 8;
  pdf.font('Regular').fontSize(8).fillColor(MUTED).text('Clearbase · downloaded once from Settings → Security; the app will not show this key again.', x, y, { width: WIDTH, lineBreak: false });
  pdf.end();
  return done;
}
