import { z } from 'zod';
import { ZDivision } from './domain';
import { ZPlayerReportRow } from './reports';

const name = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(80, `${what} must be at most 80 characters`);

/** POST /api/players: the 'Add Player' form. The player id is derived from name and birth date, so a twin is found. */
export const ZCreatePlayer = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  birthDate: z.iso.date('Birth date must be a date (YYYY-MM-DD)').refine((d) => d >= '1990-01-01' && d <= new Date().toISOString().slice(0, 10), {
    message: 'Birth date must be between 1990 and today',
  }),
  /** A year or a season id. */
  season: z.string().trim().min(1, 'Season is required'),
  division: ZDivision,
  guardianName: z.string().trim().max(120, 'Guardian name must be at most 120 characters').optional(),
  guardianEmail: z.union([z.literal(''), z.email('Guardian e-mail must be an e-mail address')]).optional(),
  guardianPhone: z
    .string()
    .trim()
    .max(40, 'Guardian phone must be at most 40 characters')
    .regex(/^[0-9+()\-.\s]*$/, 'Guardian phone may hold digits, spaces and + ( ) - . only')
    .optional(),
});
export type TCreatePlayer = z.infer<typeof ZCreatePlayer>;

/** 201: the new registration's report row (every type missing). */
export const ZCreatedPlayer = z.object({ player: ZPlayerReportRow });
export type TCreatedPlayer = z.infer<typeof ZCreatedPlayer>;
