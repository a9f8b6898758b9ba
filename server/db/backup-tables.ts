import { getTableName, is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import * as schema from "./schema.ts";

/**
 * The tables a backup leaves out, by name, each with why; the backup file names them with these
 * reasons. Every other table of the schema is backed up: a table added to `schema.ts` is in the
 * next backup without a line here (docs/decisions/063-a-backup-of-every-table.md).
 */
export const LEFT_OUT_OF_BACKUPS: Readonly<Record<string, string>> = {
  fediverse_kv:
    "Fedify's cache of remote documents and keys, and of activities already received: fetched again when needed",
  fediverse_messages:
    "Fedify's queue of work in progress: what followers were sent is kept in fediverse_deliveries",
  visit_salts:
    "the day's salt for telling visitors apart never outlives its day (docs/decisions/049-counting-without-tracking.md)",
  day_visitors:
    "today's visitor hashes never outlive their day (decision 049); the day's counts are in daily_counts",
  day_addresses:
    "today's per-address caps, kept as hashes, never outlive their day (docs/decisions/055-a-visit-per-page-and-a-crowd-per-address.md)",
};

/** Every table the schema exports. */
export const SCHEMA_TABLES: readonly PgTable[] = (Object.values(schema) as unknown[]).filter(
  (value): value is PgTable => is(value, PgTable),
);

/** The tables a table's foreign keys point at, itself left out (its rows go in one statement). */
function parentsOf(table: PgTable): PgTable[] {
  return getTableConfig(table)
    .foreignKeys.map((key) => key.reference().foreignTable)
    .filter((parent) => parent !== table);
}

/**
 * Tables with every parent before its children, so a restore inserts each row after the rows it
 * points at and a replace deletes in the reverse order. Ties go by name: a module namespace's
 * order is alphabetical under Node and the order of declaration under Vite, and a backup must
 * list its tables the same way wherever it is made.
 */
export function parentsFirst(tables: readonly PgTable[]): PgTable[] {
  const ordered: PgTable[] = [];
  const placed = new Set<PgTable>();
  const waiting = [...tables].sort((a, b) => getTableName(a).localeCompare(getTableName(b), "en"));
  while (waiting.length > 0) {
    const ready = waiting.findIndex((table) =>
      parentsOf(table).every((parent) => placed.has(parent) || !tables.includes(parent)),
    );
    if (ready === -1) {
      const names = waiting.map((table) => getTableName(table)).join(", ");
      throw new Error(`the foreign keys of ${names} form a cycle: no order restores them`);
    }
    const [table] = waiting.splice(ready, 1) as [PgTable];
    ordered.push(table);
    placed.add(table);
  }
  return ordered;
}

/** The tables a backup holds, parents first. */
export const BACKED_UP_TABLES: readonly PgTable[] = parentsFirst(
  SCHEMA_TABLES.filter((table) => !(getTableName(table) in LEFT_OUT_OF_BACKUPS)),
);

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

export const tablesIn = (scope: BackupScope): readonly PgTable[] =>
  scope === "everything"
    ? BACKED_UP_TABLES
    : BACKED_UP_TABLES.filter((table) => CONTENT_TABLES.has(table));

/**
 * Tables whose migration seeds rows (the built-in guest voices): a fresh database is never empty
 * there, so a restore replaces those rows with the backup's and they do not count as content.
 */
export const SEEDED_TABLES = new Set<PgTable>([schema.guestVoices]);
