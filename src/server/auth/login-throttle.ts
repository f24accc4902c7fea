import { createHmac, hkdfSync } from 'node:crypto';
import type { Db } from '../platform/db/client';
import { countLoginAttempt, deleteEndedLoginWindows } from './login-attempts.repository';

/** The login limit's window: attempts are counted per address per minute. */
export const LOGIN_WINDOW_MS = 60_000;
/** The per-account limit: attempts on one e-mail address, from anywhere, per window. */
export const ACCOUNT_ATTEMPTS_PER_WINDOW = 10;
export const ACCOUNT_WINDOW_MS = 15 * 60_000;

export type LoginAdmission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type LoginThrottle = {
  /** Counts a login attempt from `address`; past the limit it is refused, with the seconds until the window ends. */
  admit(address: string): Promise<LoginAdmission>;
  /** Deletes the counts of ended windows (each judged by its own length, the per-account ones included). */
  purge(): Promise<number>;
};

export type AccountThrottle = {
  /** Counts a sign-in attempt on the account of `email` (any letter case), whether or not such an account exists. */
  admit(email: string): Promise<LoginAdmission>;
};

/**
 * The key addresses are hashed with, derived from the master key: every instance of one installation
 * derives the same key (they share the master key), and the table alone does not give the addresses back.
 */
export function deriveAddressKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'clearbase login attempts by address', 32));
}

/** The key e-mail addresses are hashed with for the per-account count: the table does not give them back either. */
export function deriveAccountKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'clearbase login attempts by account', 32));
}

const admission = (attempts: number, limit: number, windowEndsInMs: number): LoginAdmission =>
  attempts <= limit ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(windowEndsInMs / 1000)) };

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
      return admission(attempts, deps.attemptsPerWindow, windowEndsInMs);
    },
    purge: () => deleteEndedLoginWindows(deps.db, Math.min(windowMs, ACCOUNT_WINDOW_MS)),
  };
}

/**
 * The limit per account, in the same table as the per-address one (its ended windows go with the same purge):
 * spreading guesses over many addresses still meets it. Keyed by the lower-cased e-mail, so an unknown address
 * is counted exactly like a known one and the limit says nothing about which accounts exist.
 */
export function createAccountThrottle(deps: { db: Db; accountKey: Buffer; attemptsPerWindow?: number; windowMs?: number }): AccountThrottle {
  const windowMs = deps.windowMs ?? ACCOUNT_WINDOW_MS;
  const limit = deps.attemptsPerWindow ?? ACCOUNT_ATTEMPTS_PER_WINDOW;
  const keyOf = (email: string) => `account:${createHmac('sha256', deps.accountKey).update(email.trim().toLowerCase()).digest('hex')}`;
  return {
    async admit(email) {
      const { attempts, windowEndsInMs } = await countLoginAttempt(deps.db, keyOf(email), windowMs);
      return admission(attempts, limit, windowEndsInMs);
    },
  };
}
