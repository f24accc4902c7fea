import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every CSV Clearbase writes, in the browser or on the server, comes from the contract's csvText / toCsv, which
 * start it with the UTF-8 byte-order mark. The web app's download takes only their CsvText (a type), and these
 * checks keep a hand-rolled writer or download from slipping in beside them.
 */
const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every source file under src/, tests left out, relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path.relative(SRC, full)] : [];
  });
}
const read = (file: string) => readFileSync(path.join(SRC, file), 'utf8');

describe('the CSV writer', () => {
  it('is the only source file that joins fields with commas into CRLF lines', () => {
    expect(sourceFiles().filter((file) => read(file).includes("join(',')") && read(file).includes('\\r\\n'))).toEqual([path.join('contract', 'csv.ts')]);
  });

  it("holds the only 'text/csv' of the source, and the web app's CSV download takes only its CsvText", () => {
    expect(sourceFiles().filter((file) => read(file).includes("'text/csv"))).toEqual([path.join('contract', 'csv.ts')]);
    expect(read(path.join('web', 'lib', 'csv.ts'))).toMatch(/export function downloadFile\(filename: string, content: CsvText\)/);
  });
});
