import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { TTwoFactorSetup } from '../../contract';

/** The name an authenticator app shows above the person's codes. */
export const TOTP_ISSUER = 'Clearbase';
/** Codes of the step before and after the current one are accepted too: a phone's clock may be a little off. */
const TOLERANCE_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

/** A new secret (20 random bytes, base32, as authenticator apps expect) and what the app needs to enrol it. */
export async function newEnrolment(accountName: string): Promise<TTwoFactorSetup> {
  const secret = generateSecret();
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: accountName, secret });
  // Loaded by the first enrolment, not with the server.
  const { default: QRCode } = await import('qrcode');
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { secret, otpauthUrl, qrCodeDataUrl };
}

/**
 * Whether `code` is the 6-digit code of `secret` now (one step either way), and not of a step already used
 * (`afterStep`): answers the step it belongs to, for the caller to record as used.
 */
export async function checkTotpCode(secret: string, code: string, now: Date, afterStep: number | null): Promise<{ valid: true; step: number } | { valid: false }> {
  if (!/^\d{6}$/.test(code)) return { valid: false };
  const epoch = Math.floor(now.getTime() / 1000);
  const latestStep = Math.floor((epoch + TOLERANCE_SECONDS) / 30);
  // Every step in the window was used already (or the clock went back): nothing can match.
  if (afterStep !== null && afterStep >= latestStep) return { valid: false };
  const result = await verify({ secret, token: code, epoch, epochTolerance: TOLERANCE_SECONDS, ...(afterStep === null ? {} : { afterTimeStep: afterStep }) });
  // A TOTP result always names its time step (an HOTP one, which this never asks for, would not).
  return result.valid && 'timeStep' in result ? { valid: true, step: result.timeStep } : { valid: false };
}

/** Whether what was typed looks like an authenticator code rather than a recovery code. */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ''));

/** Letters and digits that cannot be mistaken for one another when read off paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of two groups of five ('k7mqz-3fp9c'): shown once, stored only as hashes. */
export function newRecoveryCodes(): string[] {
  const limit = 256 - (256 % RECOVERY_ALPHABET.length);
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars: string[] = [];
    while (chars.length < 10) {
      for (const byte of randomBytes(16)) if (byte < limit && chars.length < 10) chars.push(RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length] ?? '');
    }
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** The stored form of a recovery code: SHA-256 of it without spaces or dashes, in lower case (as typed is forgiven). */
export const hashRecoveryCode = (code: string): string =>
  createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex');
