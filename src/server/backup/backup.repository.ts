import { and, isNotNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../platform/db/client';
import { documents } from '../platform/db/schema';

/**
 * The database as rows, the same on every engine Clearbase runs on (PGlite, the bundled PostgreSQL, a
 * PostgreSQL server): each table's rows as lines of JSON (`row_to_json`), read in one repeatable-read
 * snapshot, so every table is as it was at one moment; and loaded back into an empty database whose
 * schema the migrations made. No `pg_dump`: a PGlite database has none, the bundled PostgreSQL ships none,
 * and one made by another version than the server's refuses it. So a backup of one engine restores into
 * another (PGlite into the bundled PostgreSQL, that into a league's own server).
 *
 * Left out: sign-in sessions and sign-in attempts (a restored install starts with everyone signed out).
 */

export const SKIPPED_TABLES = ['sessions', 'login_attempts'] as const;

/** Rows read or written per statement, and at most this many bytes of JSON in one part of a table. */
const FETCH_ROWS = 1_000;
export const PART_BYTES = 4 * 1024 * 1024;

export type TableShape = { name: string; columns: string[]; identity: boolean };

/** A piece of one table's rows: `lines` is their JSON, one row a line. */
export type TablePart = { table: string; part: number; rows: number; lines: Buffer };

type Row = Record<string, unknown>;

const ZRows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });

async function rowsOf(db: Pick<Db, 'execute'>, query: ReturnType<typeof sql>): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  return ZRows.parse(result).rows;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The tables of the public schema a backup holds, parents before the tables whose foreign keys point at
 * them (so rows can be loaded in this order), with their columns as written (generated ones left out).
 */
export async function tableShapes(db: Pick<Db, 'execute'>): Promise<TableShape[]> {
  const tables = (await rowsOf(db, sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`))
    .map((row) => String(row.name))
    .filter((name) => !(SKIPPED_TABLES as readonly string[]).includes(name));
  const columns = await rowsOf(
    db,
    sql`select table_name, column_name, is_identity from information_schema.columns
        where table_schema = 'public' and is_generated = 'NEVER' order by table_name, ordinal_position`,
  );
  const links = await rowsOf(
    db,
    sql`select c.relname as child, p.relname as parent from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const parents = new Map<string, Set<string>>(tables.map((table) => [table, new Set<string>()]));
  for (const link of links) if (link.child !== link.parent) parents.get(String(link.child))?.add(String(link.parent));
  const ordered: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const parent of parents.get(table) ?? []) if (parents.has(parent)) place(parent, path);
    path.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) place(table, new Set());
  return ordered.map((name) => {
    const own = columns.filter((column) => column.table_name === name);
    return { name, columns: own.map((column) => String(column.column_name)), identity: own.some((column) => column.is_identity === 'YES') };
  });
}

/**
 * Every row of every table in `shapes`, in parts of at most PART_BYTES, read through a cursor so a large
 * table is never held whole. Run inside a repeatable-read transaction (`dumpDatabase`).
 */
async function* tableParts(tx: Pick<Db, 'execute'>, shapes: readonly TableShape[]): AsyncGenerator<TablePart> {
  for (const shape of shapes) {
    await tx.execute(sql.raw(`declare backup_rows no scroll cursor for select row_to_json(t)::text as line from ${quoted(shape.name)} t`));
    let part = 0;
    let lines: string[] = [];
    let bytes = 0;
    const flush = (): TablePart => {
      const done = { table: shape.name, part: part++, rows: lines.length, lines: Buffer.from(lines.length > 0 ? `${lines.join('\n')}\n` : '', 'utf8') };
      lines = [];
      bytes = 0;
      return done;
    };
    for (;;) {
      const rows = await rowsOf(tx, sql.raw(`fetch ${FETCH_ROWS} from backup_rows`));
      for (const row of rows) {
        const line = String(row.line);
        if (bytes + line.length > PART_BYTES && lines.length > 0) yield flush();
        lines.push(line);
        bytes += Buffer.byteLength(line) + 1;
      }
      if (rows.length < FETCH_ROWS) break;
    }
    await tx.execute(sql.raw('close backup_rows'));
    // Every table has at least one part, so an empty table is restored as empty, not missed.
    if (lines.length > 0 || part === 0) yield flush();
  }
}

/**
 * Reads the whole database in one snapshot and hands each part to `write` in order (parents' tables
 * first). `write` may take its time (it goes to an archive); the snapshot stays open until the last part.
 * `inSnapshot` runs in the same snapshot first, for what else must be read as of that moment.
 */
export async function dumpDatabase(
  db: Db,
  write: (part: TablePart, shape: TableShape, shapes: readonly TableShape[]) => Promise<void>,
  inSnapshot?: (tx: Pick<Db, 'execute'>) => Promise<void>,
): Promise<{ shapes: TableShape[]; rows: Record<string, number> }> {
  return db.transaction(
    async (tx) => {
      const shapes = await tableShapes(tx);
      await inSnapshot?.(tx);
      const rows: Record<string, number> = {};
      const byName = new Map(shapes.map((shape) => [shape.name, shape]));
      for await (const part of tableParts(tx, shapes)) {
        rows[part.table] = (rows[part.table] ?? 0) + part.rows;
        await write(part, byName.get(part.table) as TableShape, shapes);
      }
      return { shapes, rows };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * Tables the migrations themselves put a row in (the day completion is judged on): a new database holds
 * these and nothing else.
 */
export const MIGRATION_FILLED_TABLES = ['requirement_day'] as const;

/** Whether a database holds any row besides the ones its migrations wrote (it is in use, or was). */
export async function databaseHoldsData(db: Pick<Db, 'execute'>): Promise<boolean> {
  for (const shape of await tableShapes(db)) {
    if ((MIGRATION_FILLED_TABLES as readonly string[]).includes(shape.name)) continue;
    const [row] = await rowsOf(db, sql.raw(`select exists (select 1 from ${quoted(shape.name)}) as used`));
    if (row?.used === true) return true;
  }
  return false;
}

/** Empties the tables the migrations filled: a new database's own rows make way for the backup's. */
export async function emptyMigrationFilledTables(tx: Pick<Db, 'execute'>): Promise<void> {
  for (const table of MIGRATION_FILLED_TABLES) await tx.execute(sql.raw(`delete from ${quoted(table)}`));
}

/**
 * Loads rows of one table (lines of JSON as `dumpDatabase` wrote them) into a database whose schema has the
 * table's columns; run it in the restore's transaction. The table's own triggers are off meanwhile: the
 * tables they keep (season totals and breakdown) are restored as they were, and nothing is announced to
 * open screens.
 */
export async function loadTable(tx: Pick<Db, 'execute'>, shape: TableShape, lines: AsyncIterable<string>): Promise<number> {
  const columns = shape.columns.map(quoted).join(', ');
  const table = quoted(shape.name);
  let loaded = 0;
  await tx.execute(sql.raw(`alter table ${table} disable trigger user`));
  let batch: string[] = [];
  let bytes = 0;
  const insert = async () => {
    if (batch.length === 0) return;
    const json = `[${batch.join(',')}]`;
    await tx.execute(
      sql`${sql.raw(`insert into ${table} (${columns})${shape.identity ? ' overriding system value' : ''} select ${columns} from json_populate_recordset(null::${table}, `)}${json}${sql.raw('::json)')}`,
    );
    loaded += batch.length;
    batch = [];
    bytes = 0;
  };
  for await (const line of lines) {
    if (line.length === 0) continue;
    batch.push(line);
    bytes += line.length;
    if (batch.length >= FETCH_ROWS || bytes >= PART_BYTES) await insert();
  }
  await insert();
  await tx.execute(sql.raw(`alter table ${table} enable trigger user`));
  return loaded;
}

/** After loading: each identity column's sequence continues after the largest value restored. */
export async function resetIdentitySequences(db: Pick<Db, 'execute'>): Promise<void> {
  const identities = await rowsOf(
    db,
    sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and is_identity = 'YES'`,
  );
  for (const identity of identities) {
    const table = quoted(String(identity.table_name));
    const column = quoted(String(identity.column_name));
    await db.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table.replace(/'/g, "''")}', '${String(identity.column_name).replace(/'/g, "''")}'), coalesce((select max(${column}) from ${table}), 0) + 1, false)`,
      ),
    );
  }
}

export type StoredFile = { driver: 'local' | 's3'; key: string };
const ZStoredFiles = z.object({ rows: z.array(z.object({ driver: z.enum(['local', 's3']), key: z.string() })) });

/**
 * Every stored object the database points at, as the snapshot sees them: documents' files (in the storage
 * each was written to), files waiting in staging and form builders' raw bodies (in the configured storage).
 */
export async function storedFiles(tx: Pick<Db, 'execute'>, configured: 'local' | 's3'): Promise<StoredFile[]> {
  const result: unknown = await tx.execute(sql`
    select storage_driver as driver, storage_key as key from documents where storage_key is not null and storage_driver is not null
    union select ${configured}, staged_key from documents where staged_key is not null
    union select ${configured}, body_key from intake_deliveries where body_key is not null
    order by 2`);
  return ZStoredFiles.parse(result).rows;
}

/** After a restore: every document's file is now in the storage configured, whatever storage it came from. */
export async function moveDocumentsToStorage(tx: Db, driver: 'local' | 's3'): Promise<void> {
  await tx
    .update(documents)
    .set({ storageDriver: driver })
    .where(and(isNotNull(documents.storageKey), ne(documents.storageDriver, driver)));
}

/** Every document with a stored file and the fingerprint taken when it was received: what a check opens. */
export function documentsToVerify(db: Db) {
  return db
    .select({ id: documents.id, key: documents.storageKey, sha256: documents.fileSha256, wrappedKey: documents.wrappedKey, iv: documents.iv, authTag: documents.authTag })
    .from(documents)
    .where(and(isNotNull(documents.storageKey), isNotNull(documents.wrappedKey), isNotNull(documents.fileSha256)));
}

/**
 * Claims a night's backup for this instance: the first to write the night's date into the settings table
 * takes it (one conditional upsert), so of several instances one makes it.
 */
export async function claimNight(db: Pick<Db, 'execute'>, key: string, night: string): Promise<boolean> {
  const result: unknown = await db.execute(sql`
    insert into settings (key, value) values (${key}, ${JSON.stringify(night)}::jsonb)
    on conflict (key) do update set value = excluded.value where settings.value is distinct from excluded.value
    returning key`);
  return z.object({ rows: z.array(z.unknown()) }).parse(result).rows.length > 0;
}

/** Removes one setting (the nightly backup's schedule, when it is stopped). */
export async function deleteSetting(tx: Pick<Db, 'execute'>, key: string): Promise<void> {
  await tx.execute(sql`delete from settings where key = ${key}`);
}
