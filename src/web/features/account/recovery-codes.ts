/** The file name of the downloaded recovery codes. */
export const RECOVERY_CODES_FILE_NAME = 'clearbase-recovery-codes.txt';

/**
 * The recovery codes as the Copy button and the downloaded file give them: who and when on top, one code a
 * line, and how to use them.
 */
export function recoveryCodesText(codes: readonly string[], account: string, issuedAt: Date): string {
  return [
    `Clearbase recovery codes for ${account}`,
    `Made on ${issuedAt.toISOString().slice(0, 10)}. Each code works once, in place of the code from your authenticator app.`,
    '',
    ...codes,
    '',
    'Keep them somewhere safe and private, away from your phone.',
    '',
  ].join('\n');
}

/** A secret key in groups of four, easier to type into an authenticator app by hand. */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s/g, '').match(/.{1,4}/g) ?? []).join(' ');
}
