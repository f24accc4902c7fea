import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getSetting } from '../settings/settings.repository';
import { describeEachDatabase } from '../../../tests/support/databases';
import { verifyPassword } from '../platform/crypto/password';
import { deleteSession } from './sessions.repository';
import { bootstrapPassword, createAuthService, PASSWORD_HASH_SETTING, SESSION_RECHECK_MS } from './auth.service';
import { createLoginThrottle } from './login-throttle';

const MASTER_KEY = Buffer.alloc(32, 3);
const meta = { ip: '198.51.100.7', userAgent: 'vitest', requestId: 'test' };

describeEachDatabase('auth service', ({ getDb }) => {
  // The login limit has tests of its own (login-throttle.int.test.ts).
  const unlimited = () => createLoginThrottle({ db: getDb(), attemptsPerWindow: 10_000, addressKey: Buffer.alloc(32, 1) });
  describe('password bootstrap', () => {
    it('generates a password once, stores only its hash, and reads the hash back on the next start', async () => {
      const first = await bootstrapPassword(getDb(), undefined);
      expect(first.bootstrap.kind).toBe('generated');
      if (first.bootstrap.kind !== 'generated') return;
      const stored = await getSetting(getDb(), PASSWORD_HASH_SETTING, z.string());
      expect(stored).toBe(first.hash);
      expect(stored).not.toContain(first.bootstrap.password);
      await expect(verifyPassword(first.bootstrap.password, first.hash)).resolves.toBe(true);

      const second = await bootstrapPassword(getDb(), undefined);
      expect(second).toEqual({ hash: first.hash, bootstrap: { kind: 'stored' } });
    });

    it('prefers CLEARBASE_PASSWORD from the environment and hashes it in memory', async () => {
      const result = await bootstrapPassword(getDb(), 'from the environment');
      expect(result.bootstrap.kind).toBe('environment');
      await expect(verifyPassword('from the environment', result.hash)).resolves.toBe(true);
    });
  });

  describe('sessions', () => {
    let clock = new Date('2025-09-01T10:00:00Z');
    const service = () =>
      createAuthService({ db: getDb(), passwordHash: HASH_OF_SECRET, sessionTimeoutMinutes: 60, loginThrottle: unlimited(), masterKey: MASTER_KEY, now: () => clock });
    const advance = (minutes: number) => {
      clock = new Date(clock.getTime() + minutes * 60_000);
    };

    it('opens a session only for the right password', async () => {
      await expect(service().login('wrong', meta)).resolves.toBeUndefined();
      const session = await service().login('secret-password', meta);
      expect(session?.token).toMatch(/^[\w-]{43}$/);
      expect(session?.expiresAt.toISOString()).toBe('2025-09-01T11:00:00.000Z');
    });

    it('ends a session after 60 idle minutes, and keeps an active one alive', async () => {
      const session = await service().login('secret-password', meta);
      const token = session?.token;

      advance(50);
      const active = await service().resolveSession(token);
      expect(active?.expiresAt.toISOString()).toBe(new Date(clock.getTime() + 60 * 60_000).toISOString());

      advance(50); // 100 minutes after login, but only 50 after the last use
      expect(await service().resolveSession(token)).toBeDefined();

      advance(61);
      expect(await service().resolveSession(token)).toBeUndefined();
      expect(await service().purgeExpiredSessions()).toBeGreaterThanOrEqual(1);
    });

    it('ends a session at logout, and never resolves a made-up token', async () => {
      const session = await service().login('secret-password', meta);
      if (!session) throw new Error('login failed');
      await service().endSession(session.token);
      expect(await service().resolveSession(session.token)).toBeUndefined();
      expect(await service().resolveSession('made-up-token')).toBeUndefined();
      expect(await service().resolveSession(undefined)).toBeUndefined();
    });

    it('answers a session it read lately from memory, sees a logout elsewhere within SESSION_RECHECK_MS, and its own at once', async () => {
      const instance = service();
      const other = service();
      const session = await instance.login('secret-password', meta);
      if (!session) throw new Error('login failed');
      const id = (await instance.resolveSession(session.token))?.id;
      expect(id).toBeDefined();

      // Logged out through another instance: this one still trusts what it read, for a few seconds only.
      await deleteSession(getDb(), id ?? '');
      expect(await instance.resolveSession(session.token)).toBeDefined();
      clock = new Date(clock.getTime() + SESSION_RECHECK_MS);
      expect(await instance.resolveSession(session.token)).toBeUndefined();

      // Logged out through this instance: refused on the next request.
      const second = await instance.login('secret-password', meta);
      if (!second) throw new Error('login failed');
      expect(await instance.resolveSession(second.token)).toBeDefined();
      expect(await other.resolveSession(second.token)).toBeDefined();
      await instance.endSession(second.token);
      expect(await instance.resolveSession(second.token)).toBeUndefined();
    });

    it('still ends an idle session it remembers, and still pushes an active one forward', async () => {
      const instance = service();
      const session = await instance.login('secret-password', meta);
      if (!session) throw new Error('login failed');
      advance(59);
      const kept = await instance.resolveSession(session.token);
      expect(kept?.expiresAt.toISOString()).toBe(new Date(clock.getTime() + 60 * 60_000).toISOString());
      advance(61);
      expect(await instance.resolveSession(session.token)).toBeUndefined();
    });

    it('judges idleness by the timeout in force now (System Settings), for sessions opened before a change', async () => {
      let minutes = 60;
      const instance = createAuthService({ db: getDb(), passwordHash: HASH_OF_SECRET, sessionTimeoutMinutes: () => Promise.resolve(minutes), loginThrottle: unlimited(), masterKey: MASTER_KEY, now: () => clock });
      const shortened = await instance.login('secret-password', meta);
      const lengthened = await instance.login('secret-password', meta);
      if (!shortened || !lengthened) throw new Error('login failed');

      advance(10);
      minutes = 5;
      // Written to expire in 60 minutes, but idle for 10 under a 5-minute timeout.
      expect(await instance.resolveSession(shortened.token)).toBeUndefined();

      minutes = 90;
      advance(70);
      // Written to expire after 60 minutes, but 80 idle minutes are within 90: kept, and not purged either.
      await instance.purgeExpiredSessions();
      const kept = await instance.resolveSession(lengthened.token);
      expect(kept?.expiresAt.toISOString()).toBe(new Date(clock.getTime() + 90 * 60_000).toISOString());
    });
  });
});

describeEachDatabase('password bootstrap when two instances start at once', ({ getDb }) => {
  it('generates exactly one password and both instances use its hash', async () => {
    const [a, b] = await Promise.all([bootstrapPassword(getDb(), undefined), bootstrapPassword(getDb(), undefined)]);
    expect([a.bootstrap.kind, b.bootstrap.kind].sort()).toEqual(['generated', 'stored']);
    expect(a.hash).toBe(b.hash);
  });
});

// scrypt hash of 'secret-password' (computed once with hashPassword; the parameters travel with it).
const HASH_OF_SECRET = 'scrypt$32768$8$1$1sx2qUmXr7ON3FbhfXXKyg==$KBLZdj8dYXU4Uv2dOL9gRH7kb7/P+j5ciL1sY4gSjJA=';
