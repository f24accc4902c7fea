import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { googleAdapter } from '../../src/server/intake/providers/google';
import type { ProviderRequest } from '../../src/server/intake/providers/provider';

/**
 * clearbase.gs run in a plain JavaScript context with stand-ins for the Apps Script services it calls
 * (FormApp, DriveApp, Utilities, UrlFetchApp, PropertiesService, ScriptApp), shaped as their reference
 * documents them: bytes are signed (-128..127), as computeHmacSha256Signature and getBytes give them.
 * What the script posts must be what the Google Forms adapter verifies and reads.
 */

const SCRIPT = readFileSync(new URL('./clearbase.gs', import.meta.url), 'utf8');
const SECRET = 'google-forms-secret-for-tests';
const URL_PROPERTY = 'https://clearbase.example.org/api/intake/google';

const signed = (bytes: Buffer): number[] => [...bytes].map((b) => (b > 127 ? b - 256 : b));
const unsigned = (bytes: number[]): Buffer => Buffer.from(bytes.map((b) => (b < 0 ? b + 256 : b)));

type Item = { id: number; title: string; type: string; answer: unknown };
type Sent = { url: string; options: { method: string; contentType: string; payload: number[]; headers: Record<string, string>; muteHttpExceptions: boolean } };

function appsScript(options: { items: Item[]; drive?: Record<string, { name: string; type: string; bytes: Buffer }>; statuses?: number[]; properties?: Record<string, string> }) {
  const sent: Sent[] = [];
  const slept: number[] = [];
  const triggers: Array<{ handler: string; deleted: boolean }> = [];
  const statuses = [...(options.statuses ?? [202])];
  const properties = options.properties ?? { CLEARBASE_URL: URL_PROPERTY, CLEARBASE_SECRET: SECRET };
  const form = { getTitle: () => 'Player registration' };
  const blobOf = (bytes: Buffer, name = '', type = 'text/plain') => ({ getBytes: () => signed(bytes), getName: () => name, getContentType: () => type });
  const context = {
    console: { log: () => undefined },
    FormApp: { ItemType: { FILE_UPLOAD: 'FILE_UPLOAD', TEXT: 'TEXT', CHECKBOX: 'CHECKBOX', DATE: 'DATE' }, getActiveForm: () => form },
    DriveApp: {
      getFileById: (id: string) => {
        const file = options.drive?.[id];
        if (!file) throw new Error(`No Drive file ${id}`);
        return { getBlob: () => blobOf(file.bytes, file.name, file.type) };
      },
    },
    Utilities: {
      base64Encode: (bytes: number[]) => unsigned(bytes).toString('base64'),
      newBlob: (text: string) => blobOf(Buffer.from(text, 'utf8')),
      computeHmacSha256Signature: (value: number[], key: number[]) => signed(createHmac('sha256', unsigned(key)).update(unsigned(value)).digest()),
      sleep: (ms: number) => slept.push(ms),
    },
    UrlFetchApp: {
      fetch: (url: string, fetchOptions: Sent['options']) => {
        sent.push({ url, options: fetchOptions });
        const status = statuses.shift() ?? 202;
        if (status === 0) throw new Error('DNS error: clearbase.example.org');
        return { getResponseCode: () => status, getContentText: () => JSON.stringify({ status }) };
      },
    },
    PropertiesService: { getScriptProperties: () => ({ getProperty: (name: string) => properties[name] ?? null }) },
    ScriptApp: {
      getProjectTriggers: () => triggers.filter((t) => !t.deleted).map((t) => ({ getHandlerFunction: () => t.handler, t })),
      deleteTrigger: (trigger: { t: { deleted: boolean } }) => {
        trigger.t.deleted = true;
      },
      newTrigger: (handler: string) => ({ forForm: () => ({ onFormSubmit: () => ({ create: () => triggers.push({ handler, deleted: false }) }) }) }),
    },
  };
  const script: Record<string, (...args: unknown[]) => unknown> = {};
  runInNewContext(`${SCRIPT}\n;__exports.install = install; __exports.onFormSubmit = onFormSubmit;`, { ...context, __exports: script });
  const response = {
    getId: () => '2_ABaOnud1x9Vb3kQ',
    getTimestamp: () => new Date('2025-03-02T17:04:11.512Z'),
    getItemResponses: () =>
      options.items.map((item) => ({
        getItem: () => ({ getId: () => item.id, getTitle: () => item.title, getType: () => item.type }),
        getResponse: () => item.answer,
      })),
  };
  return {
    sent,
    slept,
    triggers,
    submit: () => script['onFormSubmit']?.({ response, source: form }),
    install: () => script['install']?.(),
    request(at = 0): ProviderRequest {
      const one = sent[at];
      if (!one) throw new Error('nothing sent');
      return {
        rawBody: unsigned(one.options.payload),
        contentType: one.options.contentType,
        headers: { 'x-clearbase-signature': one.options.headers['X-Clearbase-Signature'] },
        token: undefined,
      };
    },
  };
}

// Bytes from 0 to 255, so base64 and the signed-byte conversion meet every value.
const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from('\n%%EOF\n')]);

const ITEMS: Item[] = [
  { id: 101, title: 'Player first name', type: 'TEXT', answer: 'Zoë' },
  { id: 102, title: 'Player last name', type: 'TEXT', answer: 'Lovelace' },
  { id: 103, title: 'Player date of birth', type: 'DATE', answer: '2015-12-10' },
  { id: 104, title: 'Positions played', type: 'CHECKBOX', answer: ['Forward', 'Goalie'] },
  { id: 105, title: 'Birth certificate', type: 'FILE_UPLOAD', answer: ['drive-file-1'] },
];

describe('clearbase.gs', () => {
  it('posts each answer and the uploaded files, signed so that Clearbase accepts and reads them', () => {
    const run = appsScript({ items: ITEMS, drive: { 'drive-file-1': { name: 'birth.pdf', type: 'application/pdf', bytes: pdf } } });
    run.submit();

    expect(run.sent).toHaveLength(1);
    const [one] = run.sent;
    expect(one?.url).toBe(URL_PROPERTY);
    expect(one?.options).toMatchObject({ method: 'post', contentType: 'application/json; charset=utf-8', muteHttpExceptions: true });
    const request = run.request();
    expect(request.headers['x-clearbase-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(request.rawBody).digest('hex')}`);
    expect(googleAdapter.verify(request, SECRET)).toBe(true);
    expect(googleAdapter.verify(request, 'another-secret-of-some-length')).toBe(false);

    const parsed = googleAdapter.parse(request);
    expect(parsed.externalId).toBe('2_ABaOnud1x9Vb3kQ');
    expect(parsed.answers.map((a) => [a.key, a.label, a.value])).toEqual([
      ['101', 'Player first name', 'Zoë'],
      ['102', 'Player last name', 'Lovelace'],
      ['103', 'Player date of birth', '2015-12-10'],
      ['104', 'Positions played', 'Forward, Goalie'],
      ['105', 'Birth certificate', null],
    ]);
    const file = parsed.answers[4]?.files[0];
    expect(file?.kind === 'inline' && file.filename === 'birth.pdf' && file.content.equals(pdf)).toBe(true);
  });

  it('tries again when Clearbase answers 5xx or cannot be reached, then stops at the first answer', () => {
    const run = appsScript({ items: ITEMS.slice(0, 1), statuses: [503, 0, 202] });
    run.submit();
    expect(run.sent).toHaveLength(3);
    expect(run.slept).toHaveLength(2);
    expect(run.request(2).rawBody.equals(run.request(0).rawBody)).toBe(true);
  });

  it('gives up after a few attempts, and fails the run so the owner sees it', () => {
    const run = appsScript({ items: ITEMS.slice(0, 1), statuses: [500, 502, 503, 504, 500] });
    expect(() => run.submit()).toThrow(/after 4 attempts/);
    expect(run.sent).toHaveLength(4);
  });

  it('does not try again when Clearbase refuses the response', () => {
    const run = appsScript({ items: ITEMS.slice(0, 1), statuses: [401] });
    expect(() => run.submit()).toThrow(/refused the response \(401\)/);
    expect(run.sent).toHaveLength(1);
  });

  it('names the script property that is missing, and sends nothing', () => {
    const noSecret = appsScript({ items: ITEMS, properties: { CLEARBASE_URL: URL_PROPERTY } });
    expect(() => noSecret.submit()).toThrow(/CLEARBASE_SECRET/);
    const noUrl = appsScript({ items: ITEMS, properties: { CLEARBASE_SECRET: SECRET } });
    expect(() => noUrl.submit()).toThrow(/CLEARBASE_URL/);
    expect(noSecret.sent.length + noUrl.sent.length).toBe(0);
  });

  it('install creates one form-submit trigger, replacing an earlier one', () => {
    const run = appsScript({ items: [] });
    run.install();
    run.install();
    expect(run.triggers.filter((t) => !t.deleted).map((t) => t.handler)).toEqual(['onFormSubmit']);
  });
});
