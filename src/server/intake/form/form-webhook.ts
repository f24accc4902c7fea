import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { refuseUnstorableText, ZDivision } from '../../../contract';
import type { SubmittedPlayer } from '../../pipeline';

export const SIGNATURE_HEADER = 'x-clearbase-signature';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'is not a real date')
  .refine((value) => value <= new Date().toISOString().slice(0, 10), 'is in the future');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .default(null);

/** The text fields of a registration form submission (shared by the multipart and JSON bodies). */
export const ZFormFields = z.object({
  submissionId: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  season: z.string().trim().regex(/^(\d{4}|[a-z]+-\d{4})$/, 'must be a year (2025) or a season id (fall-2025)'),
  division: ZDivision,
  playerFirstName: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  playerLastName: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  playerBirthDate: isoDate,
  guardianName: optionalText(200),
  guardianEmail: z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : v))
    .pipe(z.email('must be an e-mail address').nullable())
    .nullable()
    .default(null),
  guardianPhone: optionalText(40).refine((v) => v === null || /^[+0-9 ().-]{5,40}$/.test(v), 'must be a phone number'),
});
export type TFormFields = z.infer<typeof ZFormFields>;

/** ZFormFields as the webhook judges what it received: a field (known or not) the database cannot store is refused by name. */
export const ZReceivedFormFields = refuseUnstorableText(ZFormFields);

export function toSubmittedPlayer(fields: TFormFields): SubmittedPlayer {
  return {
    season: fields.season,
    division: fields.division,
    firstName: fields.playerFirstName,
    lastName: fields.playerLastName,
    birthDate: fields.playerBirthDate,
    guardianName: fields.guardianName,
    guardianEmail: fields.guardianEmail,
    guardianPhone: fields.guardianPhone,
  };
}

/** Turns zod issues into the API's per-field details, every bad field named. */
export function fieldErrors(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}

/** The 32 bytes of a `sha256=<64 hex>` header, or undefined when it is missing or malformed. */
export function parseSignatureHeader(header: string | undefined): Buffer | undefined {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  return match?.[1] ? Buffer.from(match[1].toLowerCase(), 'hex') : undefined;
}

/** The header's HMAC against the one computed over the raw body, compared in constant time. */
export function verifySignature(header: string | undefined, body: { hmacHex: string }): boolean {
  const given = parseSignatureHeader(header);
  const expected = Buffer.from(body.hmacHex, 'hex');
  return given !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
}

/** HMAC-SHA256 of a body held in memory, as verifySignature wants it. */
export function hmacOf(secret: string, body: Buffer): { hmacHex: string } {
  return { hmacHex: createHmac('sha256', secret).update(body).digest('hex') };
}

export function signBody(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
