import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import { asc } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { fediverseKeys } from "../db/schema.ts";

/**
 * The site actor's key pairs (docs/decisions/045-federation-layer.md): RSA first, for HTTP
 * signatures (Mastodon reads only that one), then Ed25519, for object integrity proofs. The first
 * instance that needs a pair makes it and inserts it if none is there yet; every instance then
 * reads back the row that won, so all of them sign with the same keys.
 */
const ALGORITHMS = ["RSASSA-PKCS1-v1_5", "Ed25519"] as const;

const loaded = new WeakMap<Database, Promise<CryptoKeyPair[]>>();

/** The actor's key pairs, made once per site and kept in memory per database handle. */
export function actorKeyPairs(db: Database): Promise<CryptoKeyPair[]> {
  let pairs = loaded.get(db);
  if (!pairs) {
    pairs = loadOrMake(db);
    loaded.set(db, pairs);
    // A failed read (the database away) is tried again by the next caller.
    pairs.catch(() => loaded.delete(db));
  }
  return pairs;
}

async function loadOrMake(db: Database): Promise<CryptoKeyPair[]> {
  let rows = await db.select().from(fediverseKeys).orderBy(asc(fediverseKeys.algorithm));
  const missing = ALGORITHMS.filter(
    (algorithm) => !rows.some((row) => row.algorithm === algorithm),
  );
  if (missing.length > 0) {
    const made = await Promise.all(
      missing.map(async (algorithm) => {
        const pair = await generateCryptoKeyPair(algorithm);
        return {
          algorithm,
          privateKey: await exportJwk(pair.privateKey),
          publicKey: await exportJwk(pair.publicKey),
        };
      }),
    );
    await db.insert(fediverseKeys).values(made).onConflictDoNothing();
    rows = await db.select().from(fediverseKeys);
  }
  return Promise.all(
    ALGORITHMS.map(async (algorithm) => {
      const row = rows.find((candidate) => candidate.algorithm === algorithm);
      if (!row) throw new Error(`The ${algorithm} key pair of the site actor is missing`);
      return {
        privateKey: await importJwk(row.privateKey, "private"),
        publicKey: await importJwk(row.publicKey, "public"),
      };
    }),
  );
}
