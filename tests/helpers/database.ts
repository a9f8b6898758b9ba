import {
  type DatabaseHandle,
  openDatabase,
  rowsOf as rowsOfResult,
} from "../../server/db/client.ts";
import { createFreshPostgres } from "./fresh-postgres.ts";
import { migratedPgliteDump } from "./pglite-template.ts";

export type Driver = "pglite" | "postgres";

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const drivers: Driver[] = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

/**
 * A fresh, migrated, empty database: PGlite in memory (loaded from the migrated template), or a
 * new PostgreSQL database created on the TEST_DATABASE_URL server and dropped on close, reached
 * through a pool of `poolSize` connections. `onQuery` sees every statement Drizzle sends.
 */
export async function openTestDatabase(
  driver: Driver,
  options: { poolSize?: number; onQuery?: (statement: string) => void } = {},
): Promise<DatabaseHandle> {
  const { poolSize = 5, onQuery } = options;
  if (driver === "pglite") {
    const handle = await openDatabase({
      kind: "pglite-memory",
      fromDump: await migratedPgliteDump(),
      onQuery,
    });
    await handle.migrate();
    return handle;
  }
  const database = await createFreshPostgres("ev_test");
  const handle = await openDatabase({ kind: "postgres", url: database.url, poolSize, onQuery });
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}

/** The rows of `db.execute()`, as text, whichever driver answered. */
export const rowsOf = (result: unknown) => rowsOfResult<Record<string, string>>(result);
