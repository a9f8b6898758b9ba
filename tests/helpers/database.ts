import { randomBytes } from "node:crypto";
import pg from "pg";
import {
  type DatabaseHandle,
  openDatabase,
  rowsOf as rowsOfResult,
} from "../../server/db/client.ts";
import { migratedPgliteDump } from "./pglite-template.ts";

export type Driver = "pglite" | "postgres";

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const drivers: Driver[] = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

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
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const name = `ev_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const handle = await openDatabase({
    kind: "postgres",
    url: databaseUrl(base, name),
    poolSize,
    onQuery,
  });
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** The rows of `db.execute()`, as text, whichever driver answered. */
export const rowsOf = (result: unknown) => rowsOfResult<Record<string, string>>(result);
