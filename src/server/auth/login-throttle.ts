import { createHmac, hkdfSync } from 'node:crypto';
import type { Db } from '../platform/db/client';
import { countLoginAttempt, deleteEndedLoginWindows } from './login-attempts.repository';

/** The login limit's window: attempts are counted per address per minute. */
export const LOGIN_WINDOW_MS = 60_000;

export type LoginAdmission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type LoginThrottle = {
  /** Counts a login attempt from `address`; past the limit it is refused, with the seconds until the window ends. */
  admit(address: string): Promise<LoginAdmission>;
  /** Deletes the counts of ended windows. */
  purge(): Promise<number>;
};

/**
 * The key addresses are hashed with, derived from the master key: every instance of one installation
 * derives the same key (they share the master key), and the table alone does not give the addresses back.
 */
export function deriveAddressKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'clearbase login attempts by address', 32));
}

/**
 * The login limit per client address, counted in the database so that every instance on it shares one
 * count: N instances allow `attemptsPerWindow` attempts per address per window in total, not N times as
 * many (a per-process counter would). Every attempt counts, whatever its outcome.
 */
export function createLoginThrottle(deps: { db: Db; attemptsPerWindow: number; addressKey: Buffer; windowMs?: number }): LoginThrottle {
  const windowMs = deps.windowMs ?? LOGIN_WINDOW_MS;
  const hashOf = (address: string) => createHmac('sha256', deps.addressKey).update(address).digest('hex');
  return {
    async admit(address) {
      const { attempts, windowEndsInMs } = await countLoginAttempt(deps.db, hashOf(address), windowMs);
      if (attempts <= deps.attemptsPerWindow) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(windowEndsInMs / 1000)) };
    },
    purge: () => deleteEndedLoginWindows(deps.db, windowMs),
  };
}
