import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./data-dir-lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** The one database type services see, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  driver: "pglite" | "postgres";
  /** Applies the committed migrations (server/db/migrations); safe to run from two instances at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel`, from this instance or (PostgreSQL) any other.
   * Also called after a lost listening connection is back, since notifications may have been
   * missed meanwhile. Resolves with a function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The rows of `db.execute()`, whichever driver answered (node-postgres and PGlite shape them apart). */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  return Array.isArray(result) ? result : ((result as { rows?: Row[] }).rows ?? []);
}

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "migrations",
);
/** Arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_ID = 7_201_955;

export type DatabaseTarget = (
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "pglite"; dataDir: string }
  /** `fromDump`: a PGlite data directory tarball (dumpDataDir) to start from instead of initdb. */
  | { kind: "pglite-memory"; fromDump?: Blob }
) & {
  /** Sees every statement Drizzle sends (tests count queries with it). */
  onQuery?: (statement: string) => void;
};

function queryLogger(target: DatabaseTarget) {
  const onQuery = target.onQuery;
  return onQuery ? { logQuery: (statement: string) => onQuery(statement) } : undefined;
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  return target.kind === "postgres" ? openPostgres(target) : openPglite(target);
}

async function openPglite(target: DatabaseTarget & { kind: "pglite" | "pglite-memory" }) {
  let releaseLock = () => {};
  let client: PGlite;
  if (target.kind === "pglite") {
    const directory = path.join(target.dataDir, "pglite");
    fs.mkdirSync(directory, { recursive: true });
    // Two processes on one PGlite directory silently lose data: refuse the second opener.
    releaseLock = acquireDataDirLock(target.dataDir);
    try {
      client = await PGlite.create(directory);
    } catch (error) {
      releaseLock();
      throw error;
    }
  } else {
    client = await PGlite.create(target.fromDump ? { loadDataDir: target.fromDump } : undefined);
  }
  const db = drizzlePglite(client, { schema, logger: queryLogger(target) }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    ping: async () => {
      await client.query("select 1");
    },
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    close: async () => {
      await client.close();
      releaseLock();
    },
  } satisfies DatabaseHandle;
}

async function openPostgres(target: DatabaseTarget & { kind: "postgres" }) {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    // A statement that cannot finish in time fails instead of holding a reader's request.
    statement_timeout: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server (a restart) must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const db = drizzlePostgres(pool, { schema, logger: queryLogger(target) }) as unknown as Database;
  return {
    db,
    driver: "postgres",
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        await migratePostgres(drizzlePostgres(client, { schema }), { migrationsFolder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, onNotify) => listenPostgres(target.url, channel, onNotify),
    close: () => pool.end(),
  } satisfies DatabaseHandle;
}

/** How long a lost LISTEN connection waits before it connects again. */
const RELISTEN_DELAY_MS = 1_000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries), connecting again
 * whenever it is lost, and calling `onNotify` once it is back in case something was missed.
 */
async function listenPostgres(url: string, channel: string, onNotify: () => void) {
  let client: pg.Client | undefined;
  let isStopped = false;
  let timer: NodeJS.Timeout | undefined;
  const connect = async (isReconnect: boolean) => {
    const next = new pg.Client({ connectionString: url });
    const retry = () => {
      if (isStopped || client !== next) return;
      client = undefined;
      next.end().catch(() => {});
      timer = setTimeout(() => void connect(true).catch(() => {}), RELISTEN_DELAY_MS);
    };
    client = next;
    next.on("error", retry);
    next.on("end", retry);
    next.on("notification", (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (isReconnect) onNotify();
    } catch (error) {
      if (!isReconnect) {
        client = undefined;
        await next.end().catch(() => {});
        throw error;
      }
      retry();
    }
  };
  await connect(false);
  return async () => {
    isStopped = true;
    clearTimeout(timer);
    await client?.end().catch(() => {});
  };
}
