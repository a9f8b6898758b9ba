import { createHash } from "node:crypto";
import { and, asc, eq, inArray, lt, or } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { chapbookPoems, chapbooks, poems, siteSettings } from "../db/schema.ts";

/*
 * Which chapbooks are built, and by which instance (docs/decisions/068-chapbook-builds.md): one
 * whose poems changed since its files were made is queued again, and a build is claimed under a
 * lease (builder.ts).
 */

/** A build this instance holds until `leaseUntil`. */
export interface Claimed {
  id: number;
  leaseUntil: Date;
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

/** Claims the oldest queued chapbook, or one whose builder's lease ran out. */
export async function claim(
  { db, now }: Pick<ServiceDeps, "db" | "now">,
  leaseMs: number,
): Promise<Claimed | undefined> {
  const leaseUntil = new Date(now().getTime() + leaseMs);
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: chapbooks.id })
      .from(chapbooks)
      .where(
        or(
          eq(chapbooks.buildState, "queued"),
          and(eq(chapbooks.buildState, "building"), lt(chapbooks.leaseUntil, now())),
        ),
      )
      .orderBy(asc(chapbooks.updatedAt), asc(chapbooks.id))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!next) return undefined;
    await tx
      .update(chapbooks)
      .set({ buildState: "building", buildProgress: 0, leaseUntil })
      .where(eq(chapbooks.id, next.id));
    return { id: next.id, leaseUntil };
  });
}
