import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { DOC_TYPES, type TDivision, type TRequirementRule } from '../../contract';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { registrations, seasonRequirements, seasons } from '../platform/db/schema';

export type SeasonRow = typeof seasons.$inferSelect;
export type NewSeason = typeof seasons.$inferInsert;
/** The columns staff may change; the id never changes. */
export type SeasonChanges = Partial<
  Pick<
    SeasonRow,
    'name' | 'kind' | 'year' | 'startsOn' | 'endsOn' | 'registrationDeadline' | 'divisions' | 'closedAt' | 'ageDate' | 'divisionAges' | 'removeVerifiedBirthCertificateFilesAfterDays'
  >
>;

export const insertSeasons = (db: Db, rows: readonly NewSeason[]) => insertInBatches(db, seasons, rows);

/** Newest first, as every season select in the app lists them. */
export const listSeasons = (db: Db): Promise<SeasonRow[]> =>
  db.select().from(seasons).orderBy(desc(seasons.startsOn), asc(seasons.name));

export async function countSeasons(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(seasons);
  return row?.n ?? 0;
}

/**
 * A season by id (`fall-2025`) or by year (`2025` = that year's latest season, as the dashboard and
 * the form webhook send it). `lock: 'share'` keeps the row as read until the transaction ends: a
 * submission recorded into the season then cannot cross a change of its divisions or its closing.
 */
export async function resolveSeason(db: Db, yearOrId: string, options: { lock?: 'share' } = {}): Promise<SeasonRow | undefined> {
  const where = /^\d{4}$/.test(yearOrId) ? eq(seasons.year, Number(yearOrId)) : eq(seasons.id, yearOrId);
  const query = db.select().from(seasons).where(where).orderBy(desc(seasons.startsOn)).limit(1);
  const [row] = options.lock === 'share' ? await query.for('share') : await query;
  return row;
}

/** `lock`: the row stays locked until the transaction ends, so what is decided from it still holds at commit. */
export async function findSeason(db: Db, id: string, options: { lock?: boolean } = {}): Promise<SeasonRow | undefined> {
  const query = db.select().from(seasons).where(eq(seasons.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** The season holding `name` (names are unique), other than `exceptId`. */
export async function findSeasonByName(db: Db, name: string, exceptId?: string): Promise<SeasonRow | undefined> {
  const [row] = await db
    .select()
    .from(seasons)
    .where(and(eq(seasons.name, name), exceptId === undefined ? undefined : ne(seasons.id, exceptId)))
    .limit(1);
  return row;
}

export async function hasCurrentSeason(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: seasons.id }).from(seasons).where(eq(seasons.isCurrent, true)).limit(1);
  return row !== undefined;
}

/** The season marked current, else the one that started last. */
export async function findCurrentSeason(db: Db): Promise<SeasonRow | undefined> {
  const [row] = await db.select().from(seasons).orderBy(desc(seasons.isCurrent), desc(seasons.startsOn)).limit(1);
  return row;
}

/**
 * Until the transaction ends, no other transaction adds or changes a season (reads and submissions go on):
 * two seasons created at once are then checked one after the other, for the id, the name and which is first.
 */
export async function lockSeasonsForCreation(db: Db): Promise<void> {
  await db.execute(sql`lock table ${seasons} in share row exclusive mode`);
}

export async function insertSeason(db: Db, row: NewSeason): Promise<SeasonRow> {
  const [inserted] = await db.insert(seasons).values(row).returning();
  if (!inserted) throw new Error('the season insert returned nothing');
  return inserted;
}

export async function updateSeason(db: Db, id: string, changes: SeasonChanges): Promise<SeasonRow | undefined> {
  if (Object.keys(changes).length === 0) return findSeason(db, id);
  const [row] = await db.update(seasons).set(changes).where(eq(seasons.id, id)).returning();
  return row;
}

/**
 * Makes `id` the current season and answers the one that stopped being current (if any). Two statements, in
 * this order: the index that allows one current season is checked row by row.
 */
export async function makeCurrentSeason(db: Db, id: string): Promise<string | undefined> {
  const [previous] = await db
    .update(seasons)
    .set({ isCurrent: false })
    .where(and(eq(seasons.isCurrent, true), ne(seasons.id, id)))
    .returning({ id: seasons.id });
  await db.update(seasons).set({ isCurrent: true }).where(eq(seasons.id, id));
  return previous?.id;
}

/** How many players the season has in each of these divisions (divisions with none are left out). */
export async function countRegistrationsByDivision(db: Db, seasonId: string, divisions: readonly TDivision[]): Promise<Array<{ division: TDivision; players: number }>> {
  if (divisions.length === 0) return [];
  return db
    .select({ division: registrations.division, players: count() })
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonId), inArray(registrations.division, [...divisions])))
    .groupBy(registrations.division)
    .orderBy(asc(registrations.division));
}

/** The season's four requirement rules, in DOC_TYPES order (a trigger gives every season all four). */
export async function listSeasonRequirements(db: Db, seasonId: string): Promise<TRequirementRule[]> {
  const rows = await db.select().from(seasonRequirements).where(eq(seasonRequirements.seasonId, seasonId));
  return DOC_TYPES.flatMap((type) => {
    const row = rows.find((candidate) => candidate.docType === type);
    if (!row) return [];
    const { docType, required, lasts, months, documents, groups, datedFrom, datedTo } = row;
    return [{ docType, required, lasts, months, documents, groups, datedFrom, datedTo }];
  });
}

/**
 * Rewrites these rules of the season in one UPDATE statement (the rows stay), so the trigger on the table
 * recomputes the season's registrations once, whatever number of rules changed.
 */
export async function updateSeasonRequirements(db: Db, seasonId: string, rules: readonly TRequirementRule[]): Promise<void> {
  if (rules.length === 0) return;
  const values = rules.map((rule) => ({
    doc_type: rule.docType,
    required: rule.required,
    lasts: rule.lasts,
    months: rule.months,
    documents: rule.documents,
    groups: rule.groups,
    dated_from: rule.datedFrom,
    dated_to: rule.datedTo,
  }));
  await db.execute(sql`
    update ${seasonRequirements} as q set
      required = r.required, lasts = r.lasts, months = r.months, documents = r.documents,
      groups = array(select jsonb_array_elements_text(r.groups)), dated_from = r.dated_from, dated_to = r.dated_to
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
      as r(doc_type text, required boolean, lasts text, months smallint, documents smallint, groups jsonb, dated_from date, dated_to date)
    where q.season_id = ${seasonId} and q.doc_type = r.doc_type`);
}
