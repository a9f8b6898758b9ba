import { getTableColumns, getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type Database, rowsOf } from "./client.ts";
import * as schema from "./schema.ts";

export const BACKUP_FORMAT = "ember-verse-backup";
const BACKUP_VERSION = 1;

/** Every table, parents before children, so a restore never breaks a foreign key. */
const TABLES_IN_ORDER: PgTable[] = [
  schema.users,
  schema.remoteAuthors,
  schema.sessions,
  schema.accounts,
  schema.verifications,
  schema.rateLimits,
  schema.tags,
  schema.poems,
  schema.poemTags,
  schema.embers,
  schema.emberTags,
  schema.books,
  schema.echoes,
  schema.whispers,
  schema.poemBoosts,
  schema.journalEntries,
  schema.subscriptions,
  schema.mailRuns,
  schema.digestDeliveries,
  schema.guestSubmissions,
  schema.guestVoices,
  // The fediverse account: its keys (a new pair would break every follower's copy of it), who
  // follows it and what the poet blocked. Fedify's caches and queue are not worth keeping.
  schema.fediverseKeys,
  schema.remoteActors,
  schema.fediverseFollowers,
  schema.fediverseBlocks,
  // What followers were sent: without it a restored site would send every poem again as new.
  schema.fediversePoemState,
  schema.fediverseActivities,
  schema.fediverseDeliveries,
];

/**
 * Tables whose migration seeds rows (the built-in guest voices): a fresh database is never empty
 * there, so a restore replaces those rows with the backup's instead of refusing.
 */
const SEEDED_TABLES = new Set<PgTable>([schema.guestVoices]);

/**
 * "everything" is a backup of the site; "content" is what the poet wrote and who subscribed
 * (poems, tags, embers, books, subscribers), to move to another site (`export` / `import`).
 */
export type BackupScope = "everything" | "content";
const CONTENT_TABLES = new Set<PgTable>([
  schema.tags,
  schema.poems,
  schema.poemTags,
  schema.embers,
  schema.emberTags,
  schema.books,
  schema.subscriptions,
]);
const tablesIn = (scope: BackupScope) =>
  scope === "everything"
    ? TABLES_IN_ORDER
    : TABLES_IN_ORDER.filter((table) => CONTENT_TABLES.has(table));

export interface Backup {
  format: typeof BACKUP_FORMAT;
  version: number;
  scope: BackupScope;
  createdAt: string;
  tables: Record<string, unknown[]>;
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

/**
 * Loads a backup into an empty, migrated database in one transaction, keeping every id, then sets
 * each identity sequence past the highest id so new rows do not collide. A content export needs
 * only its own tables empty (an admin may already have signed in).
 */
export async function restoreBackup(db: Database, backup: Backup): Promise<void> {
  if (backup.format !== BACKUP_FORMAT || backup.version !== BACKUP_VERSION) {
    throw new RestoreRefused("not an Ember Verse backup (or one from a newer version)");
  }
  const tables = tablesIn(backup.scope === "content" ? "content" : "everything");
  await db.transaction(async (tx) => {
    for (const table of tables.filter((table) => !SEEDED_TABLES.has(table))) {
      const [row] = rowsOf(await tx.execute(sql`select exists (select 1 from ${table}) as found`));
      if (row?.found) {
        throw new RestoreRefused(
          `the database is not empty (${getTableName(table)} has rows); restore needs an empty one`,
        );
      }
    }
    for (const table of tables) {
      const name = getTableName(table);
      const rows = backup.tables[name];
      // A backup from before the table existed keeps the seeded rows.
      if (SEEDED_TABLES.has(table) && rows) await tx.delete(table);
      if (!rows || rows.length === 0) continue;
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
      const id = getTableColumns(table).id;
      if (id?.getSQLType() === "integer") {
        await tx.execute(
          sql`select setval(pg_get_serial_sequence(${name}, 'id'), max(id)) from ${table}`,
        );
      }
    }
  });
}
