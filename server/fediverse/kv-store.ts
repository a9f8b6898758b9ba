import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { and, eq, gt, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { fediverseKv } from "../db/schema.ts";

/**
 * Fedify's key–value store on our own schema (docs/decisions/044-fediverse-store-and-queue.md),
 * through Drizzle, so it runs on the embedded database and on PostgreSQL alike and every instance
 * shares it. A key's parts are joined by the unit separator, which no part Fedify makes holds;
 * an entry past its `expiresAt` is absent, and the database upkeep's sweep is not needed for that.
 */
const SEPARATOR = "\u001f";

const encode = (key: KvKey): string => key.join(SEPARATOR);
const decode = (key: string): KvKey => key.split(SEPARATOR) as unknown as KvKey;

const isCurrent = (): SQL =>
  or(isNull(fediverseKv.expiresAt), gt(fediverseKv.expiresAt, sql`now()`)) as SQL;

/** A ttl in milliseconds, or null for none. */
function ttlMsOf(options: KvStoreSetOptions | undefined): number | null {
  const ttl = options?.ttl;
  if (!ttl) return null;
  return Math.max(0, Math.round(ttl.total({ unit: "millisecond" })));
}

/** The instant a ttl ends, as SQL on the database's clock, or null for none. */
function expiryOf(options: KvStoreSetOptions | undefined): SQL | null {
  const ms = ttlMsOf(options);
  return ms === null ? null : sql`now() + make_interval(secs => ${ms / 1000})`;
}

export function createKvStore(db: Database): KvStore {
  // Read on every inbound activity (its idempotence): parsed and planned once per connection.
  // Written on every inbound activity (its idempotence, with a ttl): prepared likewise.
  const upsert = (expiresAt: SQL | null, name: string) =>
    db
      .insert(fediverseKv)
      .values({ key: sql.placeholder("key"), value: sql.placeholder("value"), expiresAt })
      .onConflictDoUpdate({
        target: fediverseKv.key,
        set: { value: sql`excluded.value`, expiresAt: sql`excluded.expires_at` },
      })
      .prepare(name);
  const setForever = upsert(null, "fediverse_kv_set");
  const setUntil = upsert(
    sql`now() + make_interval(secs => ${sql.placeholder("ttlSeconds")})`,
    "fediverse_kv_set_ttl",
  );
  const currentValue = db
    .select({ value: fediverseKv.value })
    .from(fediverseKv)
    .where(and(eq(fediverseKv.key, sql.placeholder("key")), isCurrent()))
    .prepare("fediverse_kv_get");
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const [row] = await currentValue.execute({ key: encode(key) });
      return row ? (row.value as T) : undefined;
    },

    async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
      const ttlMs = ttlMsOf(options);
      const params = { key: encode(key), value: value ?? null };
      if (ttlMs === null) await setForever.execute(params);
      else await setUntil.execute({ ...params, ttlSeconds: ttlMs / 1000 });
    },

    async delete(key: KvKey): Promise<void> {
      await db.delete(fediverseKv).where(eq(fediverseKv.key, encode(key)));
    },

    /**
     * Sets the value only if the key holds `expectedValue` now (undefined: absent or expired),
     * in one statement, so two instances racing on a key cannot both win.
     */
    async cas(key, expectedValue, newValue, options): Promise<boolean> {
      const encoded = encode(key);
      const expiresAt = expiryOf(options);
      if (expectedValue === undefined) {
        const inserted = await db
          .insert(fediverseKv)
          .values({ key: encoded, value: newValue, expiresAt })
          .onConflictDoUpdate({
            target: fediverseKv.key,
            set: { value: newValue, expiresAt },
            setWhere: and(
              eq(fediverseKv.key, encoded),
              lte(fediverseKv.expiresAt, sql`now()`),
            ) as SQL,
          })
          .returning({ key: fediverseKv.key });
        return inserted.length > 0;
      }
      const updated = await db
        .update(fediverseKv)
        .set({ value: newValue, expiresAt })
        .where(
          and(
            eq(fediverseKv.key, encoded),
            isCurrent(),
            expectedValue === null
              ? isNull(fediverseKv.value)
              : sql`${fediverseKv.value} = ${JSON.stringify(expectedValue)}::jsonb`,
          ),
        )
        .returning({ key: fediverseKv.key });
      return updated.length > 0;
    },

    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      const encoded = prefix ? encode(prefix) : undefined;
      const rows = await db
        .select({ key: fediverseKv.key, value: fediverseKv.value })
        .from(fediverseKv)
        .where(
          and(
            isCurrent(),
            encoded === undefined
              ? undefined
              : or(
                  eq(fediverseKv.key, encoded),
                  sql`starts_with(${fediverseKv.key}, ${encoded + SEPARATOR})`,
                ),
          ),
        )
        .orderBy(fediverseKv.key);
      for (const row of rows) yield { key: decode(row.key), value: row.value };
    },
  };
}
