import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * How every search box matches (decision 024): a substring, ignoring case and accents. Both sides go through
 * the database's `clearbase_fold` (migration 0013: unaccent, then lower), so "Martinez" finds "Martínez",
 * "MARTÍNEZ" finds "martinez", and the other way round, on PostgreSQL and PGlite alike. The trigram indexes
 * of that migration hold the same folded texts, so a pattern of three characters or more is looked up in them.
 */

/** A LIKE pattern for "contains `text`" in which `%`, `_` and `\` match only themselves (backslash is LIKE's default escape). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `value` folded as the stored search texts and the indexes are: accents off, then lowercase. */
export const folded = (value: SQLWrapper | string): SQL => sql`clearbase_fold(${value})`;

/**
 * The already folded `text` (a stored search text) contains `pattern`, a `containsPattern`, folded here.
 * A trigram index on `text` serves it.
 */
export const foldedTextContains = (text: SQLWrapper, pattern: SQLWrapper | string): SQL => sql`${text} like ${folded(pattern)}`;

/**
 * `expression`, folded, contains `pattern`, a `containsPattern`: a trigram index on the same folded
 * expression, written the same way, serves it.
 */
export const foldedContains = (expression: SQLWrapper, pattern: SQLWrapper | string): SQL => foldedTextContains(folded(expression), pattern);
