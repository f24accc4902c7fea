import { createHash } from 'node:crypto';

/** Folds case, accents and spacing so 'José  García' and 'jose garcia' are the same child. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Deterministic player id `{prefix}-{year}-{8 hex}`: the first 8 hex digits of the SHA-256 of
 * the normalised first name, last name and birth date. The same child submitted twice in one season
 * year, by form or by e-mail, lands on the same player.
 */
export function derivePlayerId(input: {
  prefix: string;
  year: number;
  firstName: string;
  lastName: string;
  birthDate: string;
}): string {
  const material = [normaliseName(input.firstName), normaliseName(input.lastName), input.birthDate].join('|');
  const hash = createHash('sha256').update(material).digest('hex').slice(0, 8);
  return `${input.prefix}-${input.year}-${hash}`;
}
