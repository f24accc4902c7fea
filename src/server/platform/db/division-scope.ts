import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TDivision } from '../../../contract';
import { registrations } from './schema';

/**
 * The divisions a read is limited to, from the principal's (`TPrincipal.divisions`): null is every division,
 * and a read for it adds no condition at all, so the unscoped statements stay exactly what they were.
 */
export type DivisionScope = readonly TDivision[] | null;

/** The scope's divisions as one parameter: `= any($1::text[])` is one statement text whatever the number of divisions. */
const divisionsParam = (divisions: readonly TDivision[]) => sql`${sql.param([...divisions])}::text[]`;

/** `column = any($divisions)`, or nothing for every division. Uses an index on the column as `=` would. */
export function inDivisions(column: SQLWrapper, scope: DivisionScope): SQL | undefined {
  return scope === null ? undefined : sql`${column} = any(${divisionsParam(scope)})`;
}

/** The same for a prepared read: the divisions are its `divisions` placeholder (see `scopeValues`). */
export const inDivisionsPlaceholder = (column: SQLWrapper): SQL => sql`${column} = any(${sql.placeholder('divisions')}::text[])`;

/** The value of the `divisions` placeholder, when the scope has one. */
export const scopeValues = (scope: DivisionScope): { divisions?: TDivision[] } => (scope === null ? {} : { divisions: [...scope] });

/** The registration a scope check looks at, under a name of its own so it never clashes with a query's own join. */
const SCOPE_REGISTRATION = 'scope_registration';
const scopeRegistration = alias(registrations, SCOPE_REGISTRATION);

/**
 * A row that belongs to a player and a season (a document, a submission, a message) is in scope when that
 * player's registration for that season is in one of the divisions: one lookup by the registrations' primary
 * key per row. A row without a registration (or without a player) is never in a limited scope. Nothing for
 * every division. `divisions` is the scope, or the `divisions` placeholder of a prepared read.
 */
export function registrationInDivisions(playerId: SQLWrapper, seasonId: SQLWrapper, scope: DivisionScope | 'placeholder'): SQL | undefined {
  if (scope === null) return undefined;
  const divisions = scope === 'placeholder' ? sql`${sql.placeholder('divisions')}::text[]` : divisionsParam(scope);
  return sql`exists (select 1 from ${registrations} ${sql.identifier(SCOPE_REGISTRATION)} where ${scopeRegistration.playerId} = ${playerId} and ${scopeRegistration.seasonId} = ${seasonId} and ${scopeRegistration.division} = any(${divisions}))`;
}
