import { createHash, createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/databases';
import { loginAttempts } from '../platform/db/schema';
import { createAccountThrottle, createLoginThrottle, deriveAccountKey, deriveAddressKey } from './login-throttle';

const KEY = deriveAddressKey(Buffer.alloc(32, 7));
const ACCOUNT_KEY = deriveAccountKey(Buffer.alloc(32, 7));

describeEachDatabase('login throttle', ({ getDb }) => {
  const throttle = (attemptsPerWindow: number) => createLoginThrottle({ db: getDb(), attemptsPerWindow, addressKey: KEY });
  /** Moves every window back in time, as if `ms` had passed. */
  const age = (ms: number) => getDb().update(loginAttempts).set({ windowStartedAt: sql`${loginAttempts.windowStartedAt} - make_interval(secs => ${ms / 1000})` });

  it('admits the limit per address and window, then refuses with the seconds until the window ends', async () => {
    const limit = throttle(3);
    for (let i = 0; i < 3; i++) await expect(limit.admit('203.0.113.1')).resolves.toEqual({ allowed: true });
    const refused = await limit.admit('203.0.113.1');
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) {
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Another address has a count of its own.
    await expect(limit.admit('203.0.113.2')).resolves.toEqual({ allowed: true });
  });

  it('starts a new window once the last one has ended', async () => {
    const limit = throttle(1);
    await expect(limit.admit('203.0.113.3')).resolves.toEqual({ allowed: true });
    expect((await limit.admit('203.0.113.3')).allowed).toBe(false);
    await age(61_000);
    await expect(limit.admit('203.0.113.3')).resolves.toEqual({ allowed: true });
    expect((await limit.admit('203.0.113.3')).allowed).toBe(false);
  });

  it('counts attempts made at the same moment exactly once each', async () => {
    const limit = throttle(5);
    const admissions = await Promise.all(Array.from({ length: 20 }, () => limit.admit('203.0.113.4')));
    expect(admissions.filter((a) => a.allowed)).toHaveLength(5);
  });

  it('keeps only a keyed hash of the address, and purges windows that have ended', async () => {
    const limit = throttle(10);
    await limit.admit('2001:db8::1');
    const rows = await getDb().select().from(loginAttempts);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113|2001:db8/);
    // Keyed: the plain hash of an address (which anyone could compute for every IPv4 address) is not stored.
    expect(rows.map((row) => row.addressHash)).not.toContain(createHash('sha256').update('2001:db8::1').digest('hex'));
    expect(rows.map((row) => row.addressHash)).toContain(createHmac('sha256', KEY).update('2001:db8::1').digest('hex'));

    await age(61_000);
    await limit.admit('203.0.113.5');
    await expect(limit.purge()).resolves.toBe(rows.length);
    expect(await getDb().$count(loginAttempts)).toBe(1);
  });

  it('counts attempts per account by the lower-cased e-mail, keyed, and the per-address purge leaves its longer window alone', async () => {
    await getDb().delete(loginAttempts);
    const accounts = createAccountThrottle({ db: getDb(), accountKey: ACCOUNT_KEY, attemptsPerWindow: 2 });
    const addresses = throttle(100);
    await expect(accounts.admit('Kim@Example.org')).resolves.toEqual({ allowed: true });
    await expect(accounts.admit(' kim@example.ORG ')).resolves.toEqual({ allowed: true });
    const refused = await accounts.admit('KIM@example.org');
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(14 * 60);
    await expect(accounts.admit('someone.else@example.org')).resolves.toEqual({ allowed: true });
    await addresses.admit('203.0.113.6');

    const rows = await getDb().select().from(loginAttempts);
    expect(JSON.stringify(rows).toLowerCase()).not.toContain('kim@example.org');
    expect(rows.map((row) => row.addressHash)).toContain(`account:${createHmac('sha256', ACCOUNT_KEY).update('kim@example.org').digest('hex')}`);

    // Two minutes on: the address's minute has ended, the account's 15 minutes have not.
    await age(2 * 60_000);
    await expect(addresses.purge()).resolves.toBe(1);
    expect((await accounts.admit('kim@example.org')).allowed).toBe(false);
    // Fifteen minutes on, the account's window ends too: purged, and counting starts again.
    await age(15 * 60_000);
    await expect(addresses.purge()).resolves.toBe(2);
    await expect(accounts.admit('kim@example.org')).resolves.toEqual({ allowed: true });
  });
});
