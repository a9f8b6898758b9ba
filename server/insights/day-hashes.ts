import { createHmac, hash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { visitSalts } from "../db/schema.ts";
import {
  breathe,
  type Pending,
  SLICE,
  type VisitorRow,
  visitPathsOf,
  type WantedVisits,
} from "./day-rows.ts";

/** Hashes this instance knows it wrote today, so they are not sent again; a bound, not a rule. */
const WRITTEN_HASHES_MAX = 200_000;

/**
 * One set's hash: its scope is in it, so one reader's hashes in two sets share nothing; the
 * secret day key leads, and one call hashes it all (an HMAC object per hash cost ten times as
 * much, decision 055).
 */
export const hashOf = (key: string, scope: string, identity: string) =>
  hash("sha256", `${key}\u0000${scope}\u0000${identity}`, "base64url").slice(0, 27);

/**
 * The hashes a batch writes in place of its visitors (docs/decisions/055-a-visit-per-page-and-a-
 * crowd-per-address.md): each day's key, and the hashes this instance already wrote today.
 */
export function createDayHashes(deps: ServiceDeps & { secret: string }) {
  const { db, secret } = deps;
  const dayKeys = new Map<string, string>();
  const writtenHashes = new Map<string, Set<string>>();

  /**
   * The day's key: the day's salt (one row every instance shares) and the site's secret
   * together, so a copy of the database alone cannot test a guessed address (decision 055).
   */
  async function dayKeyFor(day: string): Promise<string> {
    const known = dayKeys.get(day);
    if (known) return known;
    await db
      .insert(visitSalts)
      .values({ day, salt: randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await db.select().from(visitSalts).where(eq(visitSalts.day, day));
    if (!row) throw new Error(`no salt for ${day}`);
    const derived = createHmac("sha256", secret)
      .update(`day-visitors\u0000${day}\u0000${row.salt}`)
      .digest("base64url");
    dayKeys.set(day, derived);
    return derived;
  }

  async function hashVisitors(taken: Pending): Promise<VisitorRow[]> {
    const rows: VisitorRow[] = [];
    for (const [day, scopes] of taken.visitors) {
      const key = await dayKeyFor(day);
      const written = writtenHashes.get(day);
      for (const [scope, identities] of scopes) {
        for (const identity of identities) {
          const hash = hashOf(key, scope, identity);
          if (!written?.has(`${scope}\u0000${hash}`)) {
            rows.push({ day, scope, hash, order: `${day}\u0000${scope}\u0000${hash}` });
          }
          if (rows.length % SLICE === 0) await breathe();
        }
      }
    }
    // One order for every instance's rows, so two batches never wait on each other in a cycle.
    return rows.sort((a, b) => (a.order < b.order ? -1 : 1));
  }

  /** Each reading's candidate visits, hashed before the batch's transaction opens. */
  async function hashReadings(taken: Pending): Promise<WantedVisits> {
    const wanted: WantedVisits = new Map();
    for (const reading of taken.readings.values()) {
      const key = await dayKeyFor(reading.day);
      for (const scope of visitPathsOf(reading.poem)) {
        wanted.set(`${reading.day}\u0000${hashOf(key, scope, reading.identity)}`, {
          reading,
          scope,
        });
      }
      if (wanted.size % SLICE === 0) await breathe();
    }
    return wanted;
  }

  /** The hashes a batch wrote, known so that later batches today do not send them again. */
  function remember(inserted: Array<{ day: string; scope: string; hash: string }>) {
    for (const row of inserted) {
      let written = writtenHashes.get(row.day);
      if (!written) {
        written = new Set();
        writtenHashes.set(row.day, written);
      }
      if (written.size >= WRITTEN_HASHES_MAX) written.clear();
      written.add(`${row.scope}\u0000${row.hash}`);
    }
  }

  /** Forgets the keys and hashes of the days before `day`. */
  function forgetBefore(day: string) {
    for (const known of [...dayKeys.keys()]) if (known < day) dayKeys.delete(known);
    for (const known of [...writtenHashes.keys()]) if (known < day) writtenHashes.delete(known);
  }

  return { dayKeyFor, hashVisitors, hashReadings, remember, forgetBefore };
}

export type DayHashes = ReturnType<typeof createDayHashes>;
