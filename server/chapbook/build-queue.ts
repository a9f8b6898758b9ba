import { createHash, randomUUID } from "node:crypto";
import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { chapbookPoems, chapbooks, poems, siteSettings } from "../db/schema.ts";
import { leasedRows } from "../jobs/leased-rows.ts";

/*
 * Which chapbooks are built, and by which instance (docs/decisions/068-chapbook-builds.md): one
 * whose poems changed since its files were made is queued again, and a build is claimed under a
 * lease (builder.ts).
 */

/** A build this instance holds, by its claim. */
export interface Claimed {
  id: number;
  claimToken: string;
}

/** What the files are made from: the chapbook, its poems' last saves, the poet's name. */
export async function fingerprintOf(db: Database, id: number): Promise<string> {
  const [row] = await db
    .select({ updatedAt: chapbooks.updatedAt })
    .from(chapbooks)
    .where(eq(chapbooks.id, id));
  const poemRows = await db
    .select({ id: poems.id, updatedAt: poems.updatedAt, deletedAt: poems.deletedAt })
    .from(chapbookPoems)
    .innerJoin(poems, eq(poems.id, chapbookPoems.poemId))
    .where(eq(chapbookPoems.chapbookId, id))
    .orderBy(asc(chapbookPoems.position));
  const [settings] = await db.select({ updatedAt: siteSettings.updatedAt }).from(siteSettings);
  return createHash("sha256")
    .update(JSON.stringify({ chapbook: row?.updatedAt, poems: poemRows, settings }))
    .digest("hex");
}

/** Queues again the built (or failed) chapbooks whose poems changed since. */
export async function queueChanged(db: Database): Promise<void> {
  const built = await db
    .select({ id: chapbooks.id, builtFrom: chapbooks.builtFrom })
    .from(chapbooks)
    .where(inArray(chapbooks.buildState, ["ready", "failed"]));
  for (const { id, builtFrom } of built) {
    if ((await fingerprintOf(db, id)) === builtFrom) continue;
    await db
      .update(chapbooks)
      .set({ buildState: "queued", buildProgress: 0, buildError: null })
      .where(and(eq(chapbooks.id, id), inArray(chapbooks.buildState, ["ready", "failed"])));
  }
}

/**
 * The builds as leased rows (server/jobs/leased-rows.ts): the oldest queued chapbook goes first,
 * or one whose builder's lease ran out. A claim marks it building from nothing.
 */
export function buildClaims(db: Database, leaseSeconds: number) {
  const builds = leasedRows(db, {
    table: chapbooks,
    claimable: or(
      eq(chapbooks.buildState, "queued"),
      and(eq(chapbooks.buildState, "building"), lt(chapbooks.leaseUntil, sql`now()`)),
    ),
    orderBy: [asc(chapbooks.updatedAt), asc(chapbooks.id)],
    returning: { id: chapbooks.id },
    onClaim: { buildState: "building", buildProgress: 0 },
    leaseSeconds,
  });
  return {
    async next(): Promise<Claimed | undefined> {
      const claimToken = randomUUID();
      const [claimed] = await builds.claim(claimToken, 1);
      return claimed && { id: claimed.id, claimToken };
    },
    /** Writes only while this build still holds its claim: an edit meanwhile queued it again. */
    ours: ({ id, claimToken }: Claimed) =>
      and(builds.ownedBy(id, claimToken), eq(chapbooks.buildState, "building")),
    /** A build this process was making when it stopped is queued again, to start afresh. */
    releaseOwnClaims: () =>
      builds.releaseAll(eq(chapbooks.buildState, "building"), { buildState: "queued" }),
  };
}

export type BuildClaims = ReturnType<typeof buildClaims>;
