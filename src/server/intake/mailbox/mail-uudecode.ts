/**
 * uuencoded attachments: old mail programs, some scanners and a few gateways still send files this way, either
 * as a MIME part with `Content-Transfer-Encoding: x-uuencode` or as a `begin 644 name` … `end` block inside the
 * text of the message. mailparser decodes only base64 and quoted-printable (its uuencode support was dropped
 * years ago; its maintainer suggests decoding such blocks yourself), so without this the file reaches intake
 * as its encoded text and is refused.
 *
 * The format: a `begin <mode> <name>` line, then lines whose first character gives how many bytes the line
 * holds (`' ' + n`, at most 45) followed by those bytes, three to every four characters, each character
 * `' ' + 6 bits` (a backtick standing for 0); a line of length 0 (a backtick or a space) ends the data, then
 * `end`. Damaged input never throws: what cannot be read is left out, and the pipeline judges what is left
 * (an empty result is refused as an empty file).
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Content-Transfer-Encoding values mail programs write for uuencode. */
const UUENCODE_TRANSFER_ENCODINGS = new Set(['x-uuencode', 'uuencode', 'x-uue', 'uue', 'x-uu']);

/** Whether a part's Content-Transfer-Encoding says its body is uuencoded. */
export function isUuencodedTransfer(encoding: string | null | undefined): boolean {
  return encoding !== null && encoding !== undefined && UUENCODE_TRANSFER_ENCODINGS.has(encoding.trim().toLowerCase());
}

const BEGIN_LINE = /^begin[ \t]+([0-7]{1,4})[ \t]+(.*?)[ \t]*$/;
const END_LINE = /^end[ \t]*$/;
/** A data line holds at most 45 bytes (61 characters), plus a checksum character some encoders add. */
const MAX_BYTES_PER_LINE = 45;
/** Longer than any uuencoded line can be: a partial line past this is not uuencode, and is dropped. */
const MAX_LINE_CHARS = 1_024;

const sixBits = (code: number) => (code - 0x20) & 0x3f;
const isUuCharacter = (code: number) => code >= 0x20 && code <= 0x60;

/** The name a `begin` line gives, or null when the line is not one. */
export function parseBeginLine(line: string): string | null {
  const match = BEGIN_LINE.exec(line.replace(/\r$/, ''));
  return match ? (match[2] ?? '') : null;
}

/**
 * The bytes of one data line, or null when the line is not a uuencoded data line. A zero-length line decodes to
 * an empty buffer (the end of the data). Trailing spaces that a mail relay stripped count as zeros.
 */
export function decodeUuLine(line: string): Buffer | null {
  const text = line.replace(/\r$/, '');
  if (text.length === 0) return null;
  for (let i = 0; i < text.length; i++) if (!isUuCharacter(text.charCodeAt(i))) return null;
  const length = sixBits(text.charCodeAt(0));
  if (length > MAX_BYTES_PER_LINE) return null;
  const needed = Math.ceil(length / 3) * 4;
  // Longer than the count allows (beyond a checksum character or two): not a data line.
  if (text.length - 1 > needed + 2) return null;
  const out = Buffer.alloc(length);
  let written = 0;
  for (let group = 0; written < length; group++) {
    const at = 1 + group * 4;
    const c = [0, 1, 2, 3].map((offset) => (at + offset < text.length ? sixBits(text.charCodeAt(at + offset)) : 0));
    const [a = 0, b = 0, d = 0, e = 0] = c;
    const bytes = [(a << 2) | (b >> 4), ((b & 0x0f) << 4) | (d >> 2), ((d & 0x03) << 6) | e];
    for (const byte of bytes) if (written < length) out[written++] = byte & 0xff;
  }
  return out;
}

type DecoderState = 'before' | 'data' | 'done';

/**
 * Decodes a uuencoded part as it streams. Lines before the `begin` line are skipped (a part that has none is
 * read as data from its first line); `onBegin` is told the name the `begin` line gives. Everything after the
 * end of the data is ignored.
 */
export function createUudecoder(onBegin?: (name: string) => void): Transform {
  let state: DecoderState = 'before';
  let partial = '';
  let overlong = false;

  const line = (text: string, push: (chunk: Buffer) => void) => {
    if (state === 'done') return;
    const trimmed = text.replace(/\r$/, '');
    if (state === 'before') {
      if (trimmed.trim() === '') return;
      const name = parseBeginLine(trimmed);
      state = 'data';
      if (name !== null) {
        onBegin?.(name);
        return;
      }
    }
    if (END_LINE.test(trimmed)) {
      state = 'done';
      return;
    }
    const bytes = decodeUuLine(trimmed);
    if (bytes === null) return;
    if (bytes.length === 0) {
      state = 'done';
      return;
    }
    push(bytes);
  };

  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback: TransformCallback) {
      // uuencoded text is ASCII: latin1 keeps every byte one character, whatever else the part holds.
      const text = partial + (typeof chunk === 'string' ? chunk : chunk.toString('latin1'));
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      for (const each of lines) {
        if (overlong) {
          overlong = false;
          continue;
        }
        line(each, (bytes) => this.push(bytes));
      }
      if (partial.length > MAX_LINE_CHARS) {
        partial = '';
        overlong = true;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      if (!overlong && partial !== '') line(partial, (bytes) => this.push(bytes));
      callback();
    },
  });
}

export type UuencodedFile = { filename: string; content: Buffer };

/**
 * The `begin` … `end` blocks of a message's text, decoded, and the text without them (so the player's details
 * are read from what the sender wrote). A block counts only when every line between `begin` and `end` is a
 * uuencoded line: a sentence that happens to start with "begin 644" is left alone.
 */
export function extractUuencodedFiles(text: string): { text: string; files: UuencodedFile[] } {
  if (!/^begin[ \t]+[0-7]{1,4}[ \t]/m.test(text)) return { text, files: [] };
  const lines = text.split('\n');
  const kept: string[] = [];
  const files: UuencodedFile[] = [];
  for (let i = 0; i < lines.length; i++) {
    const name = parseBeginLine(lines[i] ?? '');
    const block = name === null ? null : readBlock(lines, i + 1);
    if (name === null || block === null) {
      kept.push(lines[i] ?? '');
      continue;
    }
    files.push({ filename: name, content: block.content });
    i = block.endLine;
  }
  return { text: kept.join('\n'), files };
}

/** The data from `start` up to an `end` line, or null when a line in between is not uuencoded (or there is no `end`). */
function readBlock(lines: readonly string[], start: number): { content: Buffer; endLine: number } | null {
  const chunks: Buffer[] = [];
  let ended = false;
  for (let i = start; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (END_LINE.test(line)) return { content: Buffer.concat(chunks), endLine: i };
    if (ended) {
      // After the zero-length line only `end` (or a blank line before it) may come.
      if (line.trim() === '') continue;
      return null;
    }
    // The zero-length line is a backtick or a space, and a relay may have stripped that space.
    const bytes = line === '' ? Buffer.alloc(0) : decodeUuLine(line);
    if (bytes === null) return null;
    if (bytes.length === 0) ended = true;
    else chunks.push(bytes);
  }
  return null;
}
