/**
 * File validation from what intake knows before storing anything: the first bytes, the declared name and
 * the size. The type comes from the bytes, never from the name or a Content-Type header, which the
 * sender controls; the name only has to agree with the bytes. A file that passes is then opened by its
 * decoder (inspect.ts) before it counts as staged.
 */

export type TFileKind = 'pdf' | 'jpeg' | 'png' | 'heic' | 'tiff';

/** Why a file opened by its decoder is refused (inspect.ts). */
export type TInspectionRefusalCode = 'CORRUPT_FILE' | 'PASSWORD_PROTECTED' | 'IMAGE_TOO_LARGE' | 'TOO_MANY_PAGES' | 'TOO_COMPLEX';

export type TFileRejectionCode = 'EMPTY_FILE' | 'TOO_LARGE' | 'UNSUPPORTED_TYPE' | 'EXTENSION_MISMATCH' | TInspectionRefusalCode;

export type FileValidation =
  | {
      ok: true;
      kind: TFileKind;
      mime: string;
      /** Canonical extension for the kind ('jpg', 'tif' …), for the stored path. */
      extension: string;
      /** The display name (sanitizeOriginalFilename), with the extension added when it had none. */
      filename: string;
    }
  | { ok: false; code: TFileRejectionCode; message: string };

/** How many leading bytes sniffFileType needs: a PDF header may sit anywhere in the first 1024. */
export const SNIFF_HEAD_BYTES = 1024;

const KINDS: Record<TFileKind, { mime: string; extension: string; extensions: readonly string[]; label: string }> = {
  pdf: { mime: 'application/pdf', extension: 'pdf', extensions: ['pdf'], label: 'a PDF' },
  jpeg: { mime: 'image/jpeg', extension: 'jpg', extensions: ['jpg', 'jpeg', 'jpe', 'jfif'], label: 'a JPEG image' },
  png: { mime: 'image/png', extension: 'png', extensions: ['png'], label: 'a PNG image' },
  // .hif: what Canon, Sony and Fujifilm cameras name their HEIF photos.
  heic: { mime: 'image/heic', extension: 'heic', extensions: ['heic', 'heif', 'hif'], label: 'a HEIC image' },
  // BigTIFF included (the same extensions).
  tiff: { mime: 'image/tiff', extension: 'tif', extensions: ['tif', 'tiff'], label: 'a TIFF image' },
};

/** The file types intake accepts, for screens that explain them (App Workflow, User Guide). */
export const ACCEPTED_FILE_TYPES: ReadonlyArray<{ label: string; mime: string; extensions: readonly string[] }> = Object.values(KINDS).map(
  ({ mime, extensions, label }) => ({ label: label.replace(/^an? /, ''), mime, extensions }),
);

const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Programs, scripts and archives. Only needed because a PDF header is searched for past offset 0: a file
 * that starts as one of these and carries `%PDF-` a little later is a polyglot, and is refused.
 */
const FOREIGN_SIGNATURES: readonly Buffer[] = [
  Buffer.from('MZ', 'latin1'), // Windows executable
  Buffer.from([0x7f, 0x45, 0x4c, 0x46]), // ELF
  Buffer.from('#!', 'latin1'), // script
  Buffer.from('PK', 'latin1'), // zip, and with it docx, jar, apk
  Buffer.from([0xca, 0xfe, 0xba, 0xbe]), // Mach-O universal, Java class
  Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), // Mach-O 64-bit
  Buffer.from([0xce, 0xfa, 0xed, 0xfe]), // Mach-O 32-bit
  Buffer.from('Rar!', 'latin1'),
  Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), // 7z
  Buffer.from([0x1f, 0x8b]), // gzip
];

/**
 * HEIF brands (ISO/IEC 23008-12): still images and sequences, HEVC-coded or the generic structural ones
 * (mif2: the second edition's). Cameras write heix (10-bit or 4:2:2) with mif1, and name the file .hif.
 */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'mif2', 'msf1', 'heim', 'heis']);
const HEVC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
/** AVIF shares the HEIF container and lists mif1 too; a HEIC viewer cannot show it. */
const AVIF_BRANDS = new Set(['avif', 'avis']);

/**
 * The kind of file from its first bytes (pass at least SNIFF_HEAD_BYTES when the file is that long).
 *
 * PDF: `%PDF-` at offset 0, or anywhere within the first 1024 bytes as Acrobat and pdf.js accept it:
 * scanners and mail gateways sometimes put a byte-order mark, blank lines or a banner first, and refusing
 * such a file would fail a parent whose PDF opens everywhere. A file whose first bytes are a program,
 * script or archive signature never counts as a PDF, whatever follows.
 */
export function sniffFileType(head: Buffer): TFileKind | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, PNG_SIGNATURE)) return 'png';
  if (isTiff(head)) return 'tiff';
  if (isHeif(head)) return 'heic';
  if (startsWith(head, PDF_HEADER)) return 'pdf';
  if (FOREIGN_SIGNATURES.some((signature) => startsWith(head, signature))) return undefined;
  const at = head.subarray(0, SNIFF_HEAD_BYTES).indexOf(PDF_HEADER);
  return at >= 0 ? 'pdf' : undefined;
}

/**
 * Checks, in the order a staff member would fix them: empty, too large, not a document we take, named
 * for another type. A name without an extension is fine and gets the one of its type.
 */
export function validateFile(input: { head: Buffer; filename: string; bytes: number; maxBytes: number }): FileValidation {
  if (input.bytes === 0) {
    return { ok: false, code: 'EMPTY_FILE', message: 'The file is empty' };
  }
  if (input.bytes > input.maxBytes) {
    return {
      ok: false,
      code: 'TOO_LARGE',
      message: `The file is ${formatSize(input.bytes, 'up')}; the limit is ${formatSize(input.maxBytes, 'down')}`,
    };
  }
  const kind = sniffFileType(input.head);
  if (!kind) return { ok: false, code: 'UNSUPPORTED_TYPE', message: 'Attachment is not a PDF or image' };

  const type = KINDS[kind];
  const filename = sanitizeOriginalFilename(input.filename);
  const named = extensionOf(filename);
  if (named === undefined) {
    return { ok: true, kind, mime: type.mime, extension: type.extension, filename: `${filename}.${type.extension}` };
  }
  if (!type.extensions.includes(named.toLowerCase())) {
    return { ok: false, code: 'EXTENSION_MISMATCH', message: `The file is ${type.label} but is named .${named}` };
  }
  return { ok: true, kind, mime: type.mime, extension: type.extension, filename };
}

/** Cap that leaves room in database columns and screens while keeping any real file name whole. */
const MAX_DISPLAY_NAME = 200;

/**
 * Bidirectional controls and marks: U+202E turns 'invoice\u202Efdp.exe' into what reads as
 * 'invoiceexe.pdf'. Also the Arabic letter mark, LRM/RLM and the byte-order mark, all invisible.
 */
const INVISIBLE_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/**
 * A sender's file name made safe to SHOW: never use it in a path (stored paths come from buildStoredPath).
 * Keeps the last path segment of either slash kind, drops control and bidirectional characters, collapses
 * whitespace, caps the length at 200 characters keeping the extension, and falls back to 'document' when
 * nothing is left: a bad name is never a reason to refuse a parent's file, since the name is only shown.
 */
export function sanitizeOriginalFilename(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(INVISIBLE_CONTROLS, '')
    // Tabs and newlines separate words; other control characters (NUL …) are just dropped.
    .replace(/[\t\n\r\v\f]/g, ' ')
    .replace(/\p{Cc}/gu, '');
  const segment =
    cleaned
      .split(/[/\\]/)
      .map((part) => part.replace(/\s+/g, ' ').trim())
      .filter((part) => part !== '' && !/^\.+$/.test(part))
      .pop() ?? '';
  // A Windows drive ('C:report.pdf') is a path part too; leading dots would make a hidden-file name.
  const base = segment.replace(/^[A-Za-z]:/, '').replace(/^[.\s]+/, '');
  if (base === '') return 'document';
  return capLength(base);
}

function capLength(name: string): string {
  const characters = Array.from(name); // code points, so a surrogate pair is never cut in half
  if (characters.length <= MAX_DISPLAY_NAME) return name;
  const extension = extensionOf(name);
  const suffix = extension === undefined ? '' : `.${extension}`;
  const stem = characters.slice(0, MAX_DISPLAY_NAME - suffix.length).join('').trimEnd();
  return `${stem}${suffix}`;
}

/**
 * The extension: after the last dot, 1–5 letters or digits with at least one letter. So 'Birth Cert v2.1'
 * and 'Smith, J. 2025' have none, rather than extensions '1' and ' 2025' that would never match a type.
 */
function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = name.slice(dot + 1);
  return /^(?=.*[A-Za-z])[A-Za-z0-9]{1,5}$/.test(extension) ? extension : undefined;
}

/** Classic TIFF (II*\0, MM\0*) and BigTIFF (II+\0, MM\0+: 64-bit offsets, for files past 4 GB and what some scanners write). */
function isTiff(head: Buffer): boolean {
  return (
    startsWith(head, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]) ||
    startsWith(head, [0x49, 0x49, 0x2b, 0x00]) ||
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2b])
  );
}

function isHeif(head: Buffer): boolean {
  // ISO-BMFF: the first box is `ftyp`: size (4), 'ftyp' (4), major brand (4), minor version (4), compatible brands (4 each).
  if (head.length < 12 || head.toString('latin1', 4, 8) !== 'ftyp') return false;
  const boxEnd = Math.min(head.readUInt32BE(0), head.length);
  const brands = [head.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(head.toString('latin1', at, at + 4));
  if (brands.some((brand) => AVIF_BRANDS.has(brand)) && !brands.some((brand) => HEVC_BRANDS.has(brand))) return false;
  return brands.some((brand) => HEIF_BRANDS.has(brand));
}

function startsWith(head: Buffer, signature: Buffer | readonly number[]): boolean {
  if (head.length < signature.length) return false;
  for (let index = 0; index < signature.length; index++) {
    if (head[index] !== signature[index]) return false;
  }
  return true;
}

const KB = 1024;
const MB = 1024 * 1024;

/**
 * '21.0 MB', '512 KB', '900 bytes' (binary units, as file browsers on Windows show them). The file's size
 * is rounded up and the limit down, so a file one byte over a 20 MB limit never reads as '20.0 MB'.
 */
function formatSize(bytes: number, round: 'up' | 'down'): string {
  const roundTo = (value: number) => (round === 'up' ? Math.ceil(value * 10) : Math.floor(value * 10)) / 10;
  const [value, unit] = bytes >= MB ? [roundTo(bytes / MB), 'MB'] : bytes >= KB ? [roundTo(bytes / KB), 'KB'] : [bytes, 'bytes'];
  if (unit === 'bytes') return `${value} bytes`;
  // The limit is usually a round number: '20 MB' reads better than '20.0 MB'; the file keeps its decimal.
  const text = round === 'down' && Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${text} ${unit}`;
}
