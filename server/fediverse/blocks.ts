import {
  and,
  desc,
  eq,
  exists,
  or,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { fediverseBlocks } from "../db/schema.ts";

/**
 * What the poet blocked (docs/product/fediverse.md, Blocks): a server by its host, port included
 * when it has one, or one account by its actor id. Read on every inbound activity: one indexed
 * lookup, shared by every instance, so a block holds everywhere at once.
 */
export type BlockKind = "server" | "account";

/**
 * Whether a host is under a blocked server's name: the server itself or any of its subdomains
 * (a block of `example.social` covers `media.example.social`), never a name that merely ends
 * the same way (`notexample.social`).
 */
export function isUnderServer(host: string, blocked: string): boolean {
  const name = host.toLowerCase();
  return name === blocked || name.endsWith(`.${blocked}`);
}

/** The same rule in SQL, for a host (a value or a placeholder) against a column of blocked names. */
export function hostUnder(host: SQLWrapper | Placeholder | string, blocked: SQLWrapper) {
  return or(
    sql`${host} = ${blocked}`,
    sql`right(${host}, length(${blocked}) + 1) = '.' || ${blocked}`,
  );
}

/** The host a server block names for an actor id: `host` (`host:port` when there is a port). */
export function serverOf(actorUrl: URL | string): string {
  return new URL(actorUrl).host.toLowerCase();
}

/**
 * Whether the poet blocked an actor's account or its server, as one condition, on values or on
 * a prepared statement's placeholders.
 */
function blocksActor(server: string | Placeholder, actorUrl: string | Placeholder) {
  return or(
    and(eq(fediverseBlocks.kind, "server"), hostUnder(server, fediverseBlocks.value)),
    and(eq(fediverseBlocks.kind, "account"), eq(fediverseBlocks.value, actorUrl)),
  );
}

export async function isBlocked(db: Database, actorUrl: URL | string): Promise<boolean> {
  const [row] = await db
    .select({ id: fediverseBlocks.id })
    .from(fediverseBlocks)
    .where(blocksActor(serverOf(actorUrl), new URL(actorUrl).href))
    .limit(1);
  return row !== undefined;
}

/**
 * The same question as a column, for a prepared query that reads something else of the actor
 * (one round trip instead of two on every inbound activity): its placeholders are `server` and
 * `actorUrl`.
 */
export function isBlockedColumn(db: Database): SQL<boolean> {
  return exists(
    db
      .select({ id: fediverseBlocks.id })
      .from(fediverseBlocks)
      .where(blocksActor(sql.placeholder("server"), sql.placeholder("actorUrl"))),
  ) as SQL<boolean>;
}

/** How long the server blocks read for the inbox's early refusal are used before a new read. */
const SERVER_BLOCKS_FRESH_MS = 1000;

/** The server blocks as last read for each database, dropped at every change made through it. */
const serverBlocksRead = new WeakMap<Database, { names: Promise<string[]>; readAt: number }>();

/**
 * Whether a whole server is blocked, itself or a domain above it: asked before an inbox POST's
 * body is read, to refuse a blocked server's traffic unread. The blocks are read at most once a
 * second (a handful of rows) and at once after a change made here, so the guard costs no round
 * trip per activity. This is the early refusal only: a block made through another instance
 * within that second still holds, since every activity's sender is checked against the blocks
 * in the database when it is handled (`isBlockedColumn`).
 */
export function serverBlockCheck(db: Database): (server: string) => Promise<boolean> {
  const readNames = () =>
    db
      .select({ value: fediverseBlocks.value })
      .from(fediverseBlocks)
      .where(eq(fediverseBlocks.kind, "server"))
      .then((rows) => rows.map((row) => row.value));
  return async (server) => {
    let read = serverBlocksRead.get(db);
    if (!read || performance.now() - read.readAt > SERVER_BLOCKS_FRESH_MS) {
      const started = { names: readNames(), readAt: performance.now() };
      serverBlocksRead.set(db, started);
      // A failed read (the database away) is not kept, unless a newer read took its place
      // already: the next activity reads again.
      started.names.catch(() => {
        if (serverBlocksRead.get(db) === started) serverBlocksRead.delete(db);
      });
      read = started;
    }
    const names = await read.names;
    return names.some((blocked) => isUnderServer(server, blocked));
  };
}

export async function listBlocks(db: Database) {
  return db
    .select()
    .from(fediverseBlocks)
    .orderBy(desc(fediverseBlocks.createdAt), desc(fediverseBlocks.id));
}

/** Adds a block; answers the existing one when it is there already. */
export async function addBlock(db: Database, kind: BlockKind, value: string) {
  const [inserted] = await db
    .insert(fediverseBlocks)
    .values({ kind, value })
    .onConflictDoNothing()
    .returning();
  serverBlocksRead.delete(db);
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(fediverseBlocks)
    .where(and(eq(fediverseBlocks.kind, kind), eq(fediverseBlocks.value, value)));
  if (!existing) throw new Error("The block vanished while it was added");
  return existing;
}

export async function removeBlock(db: Database, id: number): Promise<boolean> {
  const removed = await db
    .delete(fediverseBlocks)
    .where(eq(fediverseBlocks.id, id))
    .returning({ id: fediverseBlocks.id });
  serverBlocksRead.delete(db);
  return removed.length > 0;
}
