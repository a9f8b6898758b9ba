import { is, lte, sql, Table } from "drizzle-orm";
import type { RecentlyDeletedService } from "../content/recently-deleted.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { DatabaseHandle } from "../db/client.ts";
import * as schema from "../db/schema.ts";
import { createPeriodicLoop } from "../jobs/loop.ts";

/** How often the server tidies the database (docs/decisions/014-database-upkeep.md). */
export const UPKEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface UpkeepReport {
  /** Rows past their end: rate-limit windows, sessions and sign-in links. */
  expiredRows: number;
  /** Poems and books purged after their time in Recently deleted. */
  purgedContent: number;
  /** Tables vacuumed and analyzed: every table on the embedded database, none on PostgreSQL. */
  vacuumedTables: number;
}

/**
 * Expired rows go, poems and books deleted more than 30 days ago are purged, and on the embedded database the tables are vacuumed and analyzed: PGlite runs
 * PostgreSQL in single-user mode, where autovacuum never starts, so without this every deleted
 * echo and every updated delivery would stay on disk and the planner would never have statistics.
 * PostgreSQL's own autovacuum does that part there.
 */
export function createDatabaseUpkeep({
  db,
  handle,
  logger,
  now,
  recentlyDeleted,
}: ServiceDeps & {
  handle: Pick<DatabaseHandle, "driver">;
  recentlyDeleted: Pick<RecentlyDeletedService, "purgeExpired">;
}) {
  const { rateLimits, sessions, verifications } = schema;
  const tables = Object.values(schema).filter((value) => is(value, Table));

  async function vacuumEveryTable(): Promise<number> {
    // One statement a table (VACUUM cannot run in a transaction): the requests waiting for the
    // single embedded connection get their turn between tables instead of after all of them.
    for (const table of tables) await db.execute(sql`vacuum (analyze) ${table}`);
    return tables.length;
  }

  async function run(): Promise<UpkeepReport> {
    const started = performance.now();
    const asOf = now();
    const removed = await Promise.all([
      db.delete(rateLimits).where(lte(rateLimits.resetAt, asOf)).returning({ key: rateLimits.key }),
      db.delete(sessions).where(lte(sessions.expiresAt, asOf)).returning({ id: sessions.id }),
      db
        .delete(verifications)
        .where(lte(verifications.expiresAt, asOf))
        .returning({ id: verifications.id }),
    ]);
    const report = {
      expiredRows: removed.reduce((sum, rows) => sum + rows.length, 0),
      purgedContent: await recentlyDeleted.purgeExpired(),
      vacuumedTables: handle.driver === "pglite" ? await vacuumEveryTable() : 0,
    };
    logger.info({ ...report, ms: Math.round(performance.now() - started) }, "database upkeep");
    return report;
  }

  return {
    run,
    /** Started by the server process (at start, then every UPKEEP_INTERVAL_MS); tests call run. */
    loop: createPeriodicLoop({ name: "database upkeep", run, everyMs: UPKEEP_INTERVAL_MS, logger }),
  };
}
