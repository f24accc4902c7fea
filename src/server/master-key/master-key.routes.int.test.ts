import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MASTER_KEY_CONFIRM_PATH, MASTER_KEY_PATH, MASTER_KEY_SHEET_PATH, ZHealth, ZMasterKeyBackup, type TApiError } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { signInAs, signInAsUser } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { listAuditEventsByAction } from '../audit/audit-events.repository';
import { MASTER_KEY_NOT_BACKED_UP } from '../health';
import { createLogger } from '../platform/logger';
import { SHEET_ALREADY_DOWNLOADED, SHEET_NOT_DOWNLOADED, WRONG_CHARACTERS } from './master-key.service';

/** The text of each page of a PDF, read by pdf.js. */
async function pdfPages(bytes: Buffer): Promise<string[]> {
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: VerbosityLevel.ERRORS }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages;
}

/** Every way a key could be written out: base64 (whole and as printed in groups), base64url and hex. */
const keyForms = (key: Buffer): string[] => {
  const base64 = key.toString('base64');
  return [base64, base64.replace(/=+$/, ''), key.toString('base64url'), key.toString('hex'), (base64.match(/.{1,4}/g) ?? []).join(' ')];
};

describeEachDatabase('The master key recovery sheet', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let replaced: SignedInClearbase | undefined;
  const logged: string[] = [];
  let key = Buffer.alloc(0);
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const call = (target: SignedInClearbase, method: 'GET' | 'POST', url: string, payload?: object, cookie = target.cookie) =>
    target.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const state = async (target = started()) => ZMasterKeyBackup.parse((await call(target, 'GET', MASTER_KEY_PATH)).json());
  const storageHealth = async (target = started()) => ZHealth.parse((await call(target, 'GET', '/api/health')).json()).services.s3;

  beforeAll(async () => {
    const log = createLogger('debug', { write: (line: string) => void logged.push(line) });
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-master-key', startWorkers: false, log });
    key = Buffer.from((await readFile(path.join(server.dataDir, 'master.key'), 'utf8')).trim(), 'base64');
    expect(key).toHaveLength(32);
  });
  afterAll(async () => {
    await replaced?.close();
    await server?.close();
  });

  it('starts as not backed up, and health says so on the storage line', async () => {
    expect(await state()).toMatchObject({ state: 'not_downloaded', sheetDownloaded: null, confirmed: null, keyReplaced: false });
    const storage = await storageHealth();
    expect(storage.status).toBe('warning');
    expect(storage.message).toContain(MASTER_KEY_NOT_BACKED_UP);
  });

  it('refuses everyone but an admin, and anyone without a session', async () => {
    const { db } = getDatabase();
    for (const role of ['viewer', 'moderator'] as const) {
      const cookie = await signInAs(db, { role });
      expect((await call(started(), 'GET', MASTER_KEY_PATH, undefined, cookie)).statusCode, role).toBe(403);
      expect((await call(started(), 'POST', MASTER_KEY_SHEET_PATH, undefined, cookie)).statusCode, role).toBe(403);
      expect((await call(started(), 'POST', MASTER_KEY_CONFIRM_PATH, { characters: 'abcdefgh' }, cookie)).statusCode, role).toBe(403);
    }
    expect((await call(started(), 'POST', MASTER_KEY_SHEET_PATH, undefined, '')).statusCode).toBe(401);
    expect((await state()).state).toBe('not_downloaded');
  });

  it('asks for the sheet before a confirmation', async () => {
    const early = await call(started(), 'POST', MASTER_KEY_CONFIRM_PATH, { characters: key.toString('base64').slice(0, 8) });
    expect(early.statusCode).toBe(409);
    expect(early.json<TApiError>().message).toBe(SHEET_NOT_DOWNLOADED);
  });

  it('hands out a one-page PDF holding the key once, never cached, and refuses a second download', async () => {
    const { db } = getDatabase();
    const admin = await signInAsUser(db, { role: 'admin', firstName: 'Ada', lastName: 'Keeper' });
    const response = await call(started(), 'POST', MASTER_KEY_SHEET_PATH, undefined, admin.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toContain('no-store');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="clearbase-master-key-recovery-sheet-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const pages = await pdfPages(response.rawPayload);
    expect(pages).toHaveLength(1);
    // pdf.js hands the monospaced lines back word by word: compared with the spaces folded.
    const text = (pages[0] ?? '').replace(/\s+/g, ' ');
    expect(text.replace(/\s+/g, '')).toContain(key.toString('base64'));
    expect(text).toContain('master.key');
    expect(text).toContain('CLEARBASE_MASTER_KEY');
    expect(text).toContain('npm run restore -- <archive> --master-key-file <file>');
    expect(text).toContain((await state()).keyCheck);

    const after = await state();
    expect(after).toMatchObject({ state: 'awaiting_confirmation', sheetDownloaded: { by: 'Ada Keeper' }, confirmed: null });

    for (const cookie of [admin.cookie, started().cookie]) {
      const again = await call(started(), 'POST', MASTER_KEY_SHEET_PATH, undefined, cookie);
      expect(again.statusCode).toBe(410);
      expect(again.json<TApiError>().message).toBe(SHEET_ALREADY_DOWNLOADED);
      expect(again.body).not.toContain(key.toString('base64'));
    }
    expect(await listAuditEventsByAction(db, 'master_key.recovery_sheet_downloaded')).toHaveLength(1);
  });

  it('marks nothing on wrong characters, and the key as backed up on the right ones', async () => {
    const first = key.toString('base64').slice(0, 8);
    const wrongOne = `${first.slice(0, 7)}${first[7] === 'A' ? 'B' : 'A'}`;
    const flippedCase = first.toLowerCase() === first ? first.toUpperCase() : first.toLowerCase();
    for (const characters of [wrongOne, ...(flippedCase === first ? [] : [flippedCase])]) {
      const wrong = await call(started(), 'POST', MASTER_KEY_CONFIRM_PATH, { characters });
      expect(wrong.statusCode, characters).toBe(400);
      expect(wrong.json<TApiError>().message).toBe(WRONG_CHARACTERS);
    }
    const tooShort = await call(started(), 'POST', MASTER_KEY_CONFIRM_PATH, { characters: first.slice(0, 5) });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json<TApiError>().details?.[0]?.path).toBe('body.characters');
    expect((await state()).state).toBe('awaiting_confirmation');
    expect((await storageHealth()).status).toBe('warning');

    // Typed as printed, a space between the two groups.
    const right = await call(started(), 'POST', MASTER_KEY_CONFIRM_PATH, { characters: `${first.slice(0, 4)} ${first.slice(4)}` });
    expect(right.statusCode, right.body).toBe(200);
    expect(ZMasterKeyBackup.parse(right.json())).toMatchObject({ state: 'backed_up', confirmed: { by: 'Shared password' } });
    expect(await storageHealth()).toEqual({ status: 'ok', message: expect.not.stringContaining(MASTER_KEY_NOT_BACKED_UP) as string });

    // Confirming again changes nothing and records nothing new.
    expect((await call(started(), 'POST', MASTER_KEY_CONFIRM_PATH, { characters: first })).statusCode).toBe(200);
    expect(await listAuditEventsByAction(getDatabase().db, 'master_key.backup_confirmed')).toHaveLength(1);
  });

  it('starts again for a new key: not backed up, a sheet of its own, the old key’s confirmation not counted', async () => {
    const newKey = randomBytes(32);
    replaced = await startSignedInClearbase({
      database: getDatabase(),
      prefix: 'cb-master-key-new',
      startWorkers: false,
      settings: { CLEARBASE_MASTER_KEY: newKey.toString('base64') },
      log: createLogger('debug', { write: (line: string) => void logged.push(line) }),
    });
    const fresh = await state(replaced);
    expect(fresh).toMatchObject({ state: 'not_downloaded', sheetDownloaded: null, confirmed: null, keyReplaced: true });
    expect(fresh.keyCheck).not.toBe((await state()).keyCheck);
    expect((await storageHealth(replaced)).status).toBe('warning');
    // Two admins asking at the same moment: exactly one gets the sheet.
    const both = await Promise.all([call(replaced, 'POST', MASTER_KEY_SHEET_PATH), call(replaced, 'POST', MASTER_KEY_SHEET_PATH)]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 410]);
    const sheet = both.find((response) => response.statusCode === 200) ?? both[0];
    if (!sheet) throw new Error('no answer');
    // The old key's characters do not confirm the new key.
    expect((await pdfPages(sheet.rawPayload))[0]?.replace(/\s+/g, '')).toContain(newKey.toString('base64'));
    expect((await call(replaced, 'POST', MASTER_KEY_CONFIRM_PATH, { characters: key.toString('base64').slice(0, 8) })).statusCode).toBe(400);
    expect((await call(replaced, 'POST', MASTER_KEY_CONFIRM_PATH, { characters: newKey.toString('base64').slice(0, 8) })).statusCode).toBe(200);
    expect((await state(replaced)).state).toBe('backed_up');
    // The server still on the old key sees its key as no longer the confirmed one.
    expect(await state()).toMatchObject({ state: 'not_downloaded', keyReplaced: true });
    key = Buffer.concat([key, newKey]);
  });

  it('records both events in the audit trail, by whom, without any of either key; no key reaches the log', async () => {
    const { db } = getDatabase();
    const downloads = await listAuditEventsByAction(db, 'master_key.recovery_sheet_downloaded');
    const confirmations = await listAuditEventsByAction(db, 'master_key.backup_confirmed');
    expect(downloads).toHaveLength(2);
    expect(confirmations).toHaveLength(2);
    expect(downloads[0]).toMatchObject({ actor: 'user', actorName: 'Ada Keeper', subjectType: 'settings' });
    expect(confirmations[0]).toMatchObject({ actor: 'shared-password', subjectType: 'settings' });
    const keys = [key.subarray(0, 32), key.subarray(32)];
    const audited = JSON.stringify([...downloads, ...confirmations]);
    expect(logged.length).toBeGreaterThan(0);
    const log = logged.join('\n');
    for (const one of keys) {
      for (const form of [...keyForms(one), one.toString('base64').slice(0, 8)]) {
        expect(audited).not.toContain(form);
        expect(log).not.toContain(form);
      }
    }
  });
});
