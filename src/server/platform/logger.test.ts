import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { LogFormat } from './config';
import { createLogger, logFormatFor } from './logger';

/** The text one `info` event becomes, written to a captured destination as main.ts would write it to stdout. */
function oneLine(format: LogFormat, fields: Record<string, unknown> = { playerId: 'CB-2025-0a1b2c3d' }): string {
  const written: string[] = [];
  createLogger('info', { write: (text: string) => void written.push(text) }, format).info(fields, 'player saved');
  return written.join('');
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('the log format', () => {
  it('is pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(logFormatFor(undefined, true)).toBe('pretty');
    expect(logFormatFor(undefined, false)).toBe('json');
    expect(logFormatFor(undefined, undefined)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
  });

  it('writes one readable line per event on a terminal: time, level, message, fields, no pid or host name', () => {
    const line = oneLine(logFormatFor(undefined, true));
    expect(line).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} [+-]\d{4}\] INFO: player saved \{"playerId":"CB-2025-0a1b2c3d"\}\n$/);
    expect(isJson(line)).toBe(false);
    expect(line).not.toMatch(/pid|hostname/);
  });

  it('writes a JSON line when stdout is not a terminal, and on a terminal with LOG_FORMAT=json', () => {
    for (const format of [logFormatFor(undefined, false), logFormatFor('json', true)]) {
      const line = oneLine(format);
      expect(line.endsWith('}\n')).toBe(true);
      expect(line.trimEnd()).not.toContain('\n');
      expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'player saved', playerId: 'CB-2025-0a1b2c3d' });
    }
  });

  it('redacts the same secrets, search strings and query values in pretty lines as in JSON lines', () => {
    const failedQuery = new DrizzleQueryError('select "id" from "players" where "guardian_email" = $1', ['maeve.obrien@example.org']);
    const fields = {
      password: 'correct horse battery',
      req: { headers: { cookie: 'clearbase_session=4f9c2e', authorization: 'Basic c2VjcmV0' } },
      url: '/api/players?search=Maeve%20O%27Brien&page=2',
      err: failedQuery,
    };
    for (const format of ['pretty', 'json'] as const) {
      const text = oneLine(format, fields);
      for (const secret of ['correct horse', '4f9c2e', 'c2VjcmV0', 'Maeve', 'maeve.obrien']) expect(text, `${format}: ${secret}`).not.toContain(secret);
      expect(text, format).toContain('[redacted]');
      expect(text, format).toContain('/api/players?search=…&page=…');
      expect(text, format).toContain('params: [redacted]');
    }
  });

  it('never writes the token of a form builder webhook address, in JSON or pretty lines', () => {
    const token = 'Zq81-token-of-the-webhook';
    for (const format of ['pretty', 'json'] as const) {
      const text = oneLine(format, { method: 'POST', url: `/api/intake/jotform/${token}`, statusCode: 202 });
      expect(text, format).not.toContain(token);
      expect(text, format).toContain('/api/intake/jotform/[redacted]');
    }
  });
});
