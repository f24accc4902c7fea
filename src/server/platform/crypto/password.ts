import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** scrypt cost: N=2^15, r=8, p=1 (about 32 MiB and tens of milliseconds per check). */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const MAX_MEMORY = 128 * COST.N * COST.r * 2;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...COST, maxmem: MAX_MEMORY });
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time check; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 128 * Number(n) * Number(r) * 2 };
  if (expected.length !== KEY_LENGTH || ![options.N, options.r, options.p].every(Number.isSafeInteger)) return false;
  const actual = await scrypt(password, Buffer.from(saltText, 'base64'), KEY_LENGTH, options);
  return timingSafeEqual(actual, expected);
}

/** A password a person can read out and type: 4 groups of 5 letters and digits without look-alikes. */
export function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  // 256 % 31 != 0, so reject the top of the byte range to keep every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  const chars: string[] = [];
  while (chars.length < 20) {
    for (const byte of randomBytes(32)) {
      if (byte < limit && chars.length < 20) chars.push(alphabet[byte % alphabet.length] ?? '');
    }
  }
  return [0, 5, 10, 15].map((i) => chars.slice(i, i + 5).join('')).join('-');
}
