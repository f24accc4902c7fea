/** The characters of Windows-1252 (WinAnsiEncoding) outside Latin-1, by their code there. */
const WIN_ANSI_EXTRA: Readonly<Record<string, number>> = { '€': 0x80, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };

/** Text as WinAnsiEncoding bytes, in a PDF string: parentheses and backslashes escaped, what it cannot show as '?'. */
function pdfString(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f;
    const byte = WIN_ANSI_EXTRA[char] ?? (code >= 0x20 && code <= 0xff && (code < 0x7f || code >= 0xa0) ? code : 0x3f);
    const escaped = String.fromCharCode(byte);
    out += escaped === '(' || escaped === ')' || escaped === '\\' ? `\\${escaped}` : escaped;
  }
  return `(${out})`;
}

/**
 * A minimal valid one-page PDF showing a line of text (or a few lines, the first one large), that a browser's
 * PDF viewer renders: the admin test submission's file, the demo documents' files and the tests' real PDFs.
 * Helvetica in WinAnsiEncoding: accented Latin letters and dashes show; other characters read '?'.
 */
export function onePagePdf(text: string | readonly string[], fontSize = 24): Buffer {
  const [first = '', ...rest] = typeof text === 'string' ? [text] : text;
  const small = Math.max(10, Math.round(fontSize * 0.6));
  const lines = [`/F1 ${fontSize} Tf 72 700 Td ${pdfString(first)} Tj`, ...rest.map((line, index) => `${index === 0 ? `/F1 ${small} Tf 0 ${-fontSize * 1.6} Td` : `0 ${-small * 1.5} Td`} ${pdfString(line)} Tj`)];
  const content = `BT ${lines.join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
