import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { createPgConfig } from "@electric-sql/pglite/node-postgres";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./data-dir-lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** The one database type services see, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** What `db.transaction` hands its callback: writes that commit or roll back together. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

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

/** The rows of `db.execute()` (a node-postgres result; a bare array from other Drizzle drivers). */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  return Array.isArray(result) ? result : ((result as { rows?: Row[] }).rows ?? []);
}

const dialect = new PgDialect();

/**
 * Runs a statement Drizzle's builders cannot write (a data-modifying `WITH`) under a name, as
 * Drizzle's `.prepare(name)` runs theirs: each connection parses and plans it once and then only
 * binds and executes it (decision 026; the echo toggle: 0.19 ms against 0.94).
 */
export async function executeNamed<Row>(db: Database, name: string, query: SQL): Promise<Row[]> {
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  return rowsOf<Row>(await prepared.execute());
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
  const pool = pgliteAsPool(client);
  const db = drizzlePostgres(pool, { schema, logger: queryLogger(target) }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    // Before any query: PGlite's own calls must not interleave with the pool's (pgliteAsPool).
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: async (channel, onNotify) => {
      const stopCalling = client.onNotification((name) => {
        if (name === channel) onNotify();
      });
      await db.execute(sql`listen ${sql.identifier(channel)}`);
      return async () => {
        stopCalling();
        await db.execute(sql`unlisten ${sql.identifier(channel)}`);
      };
    },
    close: async () => {
      await pool.end();
      await client.close();
      releaseLock();
    },
  } satisfies DatabaseHandle;
}

/**
 * node-postgres over PGlite, through PGlite's own adapter (decision 026): drizzle names its
 * prepared statements, so each is parsed and planned once per process, where PGlite's query()
 * parses, describes and plans every statement again (the poem page's read: 1.5 ms against 0.3).
 * One client, as PGlite is one session: a transaction holds it, as PGlite's own mutex did. The
 * pool is the only way in once the app runs: PGlite's query() between two of the pool's protocol
 * messages would take over their unnamed portal, hence LISTEN and ping through the pool too.
 */
function pgliteAsPool(client: PGlite): pg.Pool {
  const config = createPgConfig(client);
  const { connection } = config;
  // drizzle hands pg its type parsers as `types`, which pg passes on as the statement's parameter
  // types; PostgreSQL's own pg-protocol sends none for an object, PGlite's fails on one.
  const parse = connection.parse.bind(connection);
  connection.parse = (query: { types?: unknown }) =>
    parse(Array.isArray(query.types) ? query : { ...query, types: undefined });
  return new pg.Pool({
    user: config.user,
    password: config.password,
    database: config.database,
    host: config.host,
    port: config.port,
    // @ts-expect-error pg's Client takes a ready connection (its `connection` option), untyped.
    connection,
    max: 1,
    // The one session never times out: an idle client is kept, its prepared statements with it.
    idleTimeoutMillis: 0,
  });
}

async function openPostgres(target: DatabaseTarget & { kind: "postgres" }) {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    // A statement that cannot finish in time fails instead of holding a reader's request.
    statement_timeout: 10_000,
    // A connection cut without a reset (a partition, a failover behind a load balancer) answers
    // nothing: the client gives up on it after this long, and keepalive probes find it while idle,
    // so the pool replaces it instead of handing a dead connection to the next request.
    query_timeout: 15_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server (a restart) must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // pg-pool listens for a client's errors only while it is idle: a connection lost while a
  // transaction holds it (between two statements) would emit 'error' to no listener and end the
  // process. The statement in flight fails on its own; the pool discards the client on release.
  pool.on("connect", (client) => client.on("error", () => {}));
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
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
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
