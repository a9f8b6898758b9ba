import { getTableColumns, getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type BackupScope, LEFT_OUT_OF_BACKUPS, SEEDED_TABLES, tablesIn } from "./backup-tables.ts";
import { type Database, rowsOf } from "./client.ts";

export type { BackupScope };

export const BACKUP_FORMAT = "ember-verse-backup";
/**
 * 2: every table of the schema, and `leftOut`. 3: one table of remote accounts (decision 075).
 * An older backup restores what it holds, its remote people carried into that table.
 */
const BACKUP_VERSION = 3;

export interface Backup {
  format: typeof BACKUP_FORMAT;
  version: number;
  scope: BackupScope;
  createdAt: string;
  tables: Record<string, unknown[]>;
  /** The tables left out, each with why (absent from a version-1 backup). */
  leftOut?: Record<string, string>;
}

/**
 * The columns a backup holds: those a restore can write. Generated ones (search documents) are
 * left out of both, and PostgreSQL builds them again from the restored rows.
 */
const storedColumns = (table: PgTable) =>
  Object.values(getTableColumns(table)).filter((column) => !column.generated);

/**
 * Every row of every table, read in one REPEATABLE READ transaction: a consistent snapshot even
 * while readers echo and whisper. The same on both drivers, so a backup of the embedded database
 * restores into PostgreSQL and back.
 */
export async function createBackup(
  db: Database,
  scope: BackupScope = "everything",
): Promise<Backup> {
  return db.transaction(
    async (tx) => {
      const tables: Record<string, unknown[]> = {};
      for (const table of tablesIn(scope)) {
        const name = getTableName(table);
        const columns = sql.join(
          storedColumns(table).map(
            (column) => sql`${column.name}::text, t.${sql.identifier(column.name)}`,
          ),
          sql`, `,
        );
        const [row] = rowsOf(
          await tx.execute(
            sql`select coalesce(json_agg(json_build_object(${columns})), '[]'::json) as rows
                from ${table} as t`,
          ),
        );
        tables[name] = (row?.rows as unknown[]) ?? [];
      }
      return {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        scope,
        createdAt: new Date().toISOString(),
        tables,
        ...(scope === "everything" ? { leftOut: { ...LEFT_OUT_OF_BACKUPS } } : {}),
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** Row counts per table: what `backup` and `restore` report, and what the tests compare. */
export function describeBackup(backup: Backup): string {
  return Object.entries(backup.tables)
    .map(([name, rows]) => `${name} ${rows.length}`)
    .join(", ");
}

export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

/** A table a restore writes: the rows it holds now and the rows the backup brings. */
export interface TableReplacement {
  table: string;
  rowsNow: number;
  rowsInBackup: number;
}

function checkFormat(backup: Backup) {
  if (
    backup.format !== BACKUP_FORMAT ||
    !(backup.version >= 1 && backup.version <= BACKUP_VERSION)
  ) {
    throw new RestoreRefused("not an Ember Verse backup (or one from a newer version)");
  }
}

type Row = Record<string, unknown>;

/**
 * A backup from before one table held remote accounts, in today's tables: each author with its
 * id and user, its details from whichever of its two rows was refreshed last and its inbox and
 * key from its actor row, then each actor that was no author, and boosts pointing at the
 * accounts; as migration 0025 carried a database over.
 */
function withRemoteAccounts(backup: Backup): Backup {
  const {
    remote_authors: authors,
    remote_actors: actors,
    ...tables
  } = backup.tables as Record<string, Row[] | undefined>;
  if (!authors && !actors) return backup;
  const actorsById = new Map((actors ?? []).map((actor) => [actor.id, actor]));
  const later = (a: Row, b: Row | undefined) =>
    b && String(b.updated_at) > String(a.updated_at) ? b : a;
  const accounts: Row[] = (authors ?? []).map((author) => {
    const actor = actorsById.get(author.actor_url);
    const details = later(author, actor);
    return {
      id: author.id,
      actor_url: author.actor_url,
      user_id: author.user_id,
      handle: details.handle,
      name: details.name,
      avatar_url: details.avatar_url,
      profile_url: details.profile_url,
      server: author.server,
      inbox: actor?.inbox ?? null,
      shared_inbox: actor?.shared_inbox ?? null,
      public_key_id: actor?.public_key_id ?? null,
      created_at: author.created_at,
      updated_at: details.updated_at,
    };
  });
  let nextId = Math.max(0, ...accounts.map((account) => Number(account.id))) + 1;
  const authorUrls = new Set(accounts.map((account) => account.actor_url));
  for (const actor of actors ?? []) {
    if (authorUrls.has(actor.id)) continue;
    const { id, ...rest } = actor;
    accounts.push({ ...rest, id: nextId++, actor_url: id, created_at: actor.updated_at });
  }
  const boosts = (tables.poem_boosts ?? []).map(({ remote_author_id, ...boost }) => ({
    ...boost,
    remote_account_id: boost.remote_account_id ?? remote_author_id,
  }));
  return {
    ...backup,
    tables: { ...tables, remote_accounts: accounts, poem_boosts: boosts },
  };
}

const scopeOf = (backup: Backup): BackupScope =>
  backup.scope === "content" ? "content" : "everything";

async function rowCount(db: Pick<Database, "execute">, table: PgTable): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`select count(*)::int as count from ${table}`));
  return Number(row?.count ?? 0);
}

export interface RestorePlan {
  tables: TableReplacement[];
  /** Rows in any of the backup's tables but the seeded ones: a restore must replace them. */
  hasContent: boolean;
}

/** What restoring `backup` would do, table by table (`restore --dry-run`). */
export async function planRestore(db: Database, given: Backup): Promise<RestorePlan> {
  checkFormat(given);
  const backup = withRemoteAccounts(given);
  const tables: TableReplacement[] = [];
  let hasContent = false;
  for (const table of tablesIn(scopeOf(backup))) {
    const name = getTableName(table);
    const rowsNow = await rowCount(db, table);
    if (rowsNow > 0 && !SEEDED_TABLES.has(table)) hasContent = true;
    tables.push({ table: name, rowsNow, rowsInBackup: backup.tables[name]?.length ?? 0 });
  }
  return { tables, hasContent };
}

/**
 * Loads a backup in one transaction, keeping every id, then sets each identity sequence past the
 * highest id so new rows do not collide. The database must have no content in the backup's
 * tables, unless `replace`: then their rows are deleted first, children before parents (the
 * caller keeps a backup of them). A content export needs only its own tables empty (an admin
 * may already have signed in).
 */
export async function restoreBackup(
  db: Database,
  given: Backup,
  { replace = false }: { replace?: boolean } = {},
): Promise<void> {
  checkFormat(given);
  const backup = withRemoteAccounts(given);
  const tables = tablesIn(scopeOf(backup));
  await db.transaction(async (tx) => {
    if (replace) {
      for (const table of [...tables].reverse()) await tx.delete(table);
    }
    for (const table of tables.filter((table) => !SEEDED_TABLES.has(table))) {
      const [row] = rowsOf(await tx.execute(sql`select exists (select 1 from ${table}) as found`));
      if (row?.found) {
        throw new RestoreRefused(
          `the database is not empty (${getTableName(table)} has rows); restore needs an empty one`,
        );
      }
    }
    for (const table of tables) await restoreTable(tx, table, backup.tables[getTableName(table)]);
  });
}

async function restoreTable(
  tx: Pick<Database, "execute" | "delete">,
  table: PgTable,
  rows: unknown[] | undefined,
) {
  // A backup from before the table existed keeps the seeded rows.
  if (SEEDED_TABLES.has(table) && rows) await tx.delete(table);
  if (!rows || rows.length === 0) return;
  const columns = sql.join(
    storedColumns(table).map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  // The rows go in as one JSON parameter: no per-value SQL, and identity ids kept as they were.
  await tx.execute(
    sql`insert into ${table} (${columns}) overriding system value
        select ${columns}
        from json_populate_recordset(null::${table}, ${JSON.stringify(rows)}::json)`,
  );
  const name = getTableName(table);
  for (const column of Object.values(getTableColumns(table))) {
    if (!column.generatedIdentity) continue;
    await tx.execute(
      sql`select setval(pg_get_serial_sequence(${name}, ${column.name}), max(${sql.identifier(column.name)}))
          from ${table}`,
    );
  }
}
