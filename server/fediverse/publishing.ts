import type { DocumentLoader } from "@fedify/vocab-runtime";
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { type Database, rowsOf } from "../db/client.ts";
import { fediverseActivities, fediversePoemState, poems } from "../db/schema.ts";
import { publishedPoems } from "../db/visibility.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import { type DeliverySigner, enqueueActivity } from "./delivery.ts";
import { poemObjectUrl } from "./object-urls.ts";
import type { ObjectAddressing } from "./objects.ts";
import { activitiesFor, activityJson, contentHash, type Plan } from "./publishing-activities.ts";

/**
 * How long after a delete the Delete waits. The admin's Undo lives in the delete's toast
 * (docs/decisions/033-recently-deleted.md): 3 s, and as long again as the poet's pointer or focus
 * holds it; ten minutes is far past any Undo, and short enough that followers soon see the
 * poem gone. A poem restored later from Recently deleted goes out again as a new Create.
 */
export const DELETE_AFTER_UNDO_MS = 10 * 60 * 1000;

/** The advisory lock class under which one instance at a time acts for a poem. */
const POEM_LOCK_CLASS = 4735;

/** Who sends, and with which keys (the actor's, shared by every instance). */
export interface PublishingIdentity {
  addressing: ObjectAddressing;
  /** The Ed25519 key for the object integrity proof each activity carries. */
  proofSigner: DeliverySigner | null;
  /** Expands JSON-LD contexts from Fedify's preloaded copies, never the network. */
  contextLoader: DocumentLoader;
}

export interface FediversePublishingOptions {
  /** How often every instance compares what readers see with what followers were sent. */
  intervalMs: number;
}

/**
 * Publishing federates by reconciliation (docs/decisions/047-fediverse-delivery.md): every
 * instance, every `intervalMs` and soon after a content write, compares the poems readers can see
 * now (server/db/visibility.ts, on the services' clock) with what followers were last sent
 * (fediverse_poem_state), and queues the difference: newly visible → Create, title or stanzas
 * changed → Update, a new address → Delete of the old and Create of the new, no longer visible →
 * Delete with a Tombstone, once a delete's Undo has passed. One instance acts per poem (an
 * advisory lock held in the transaction that records the activity, its deliveries and the new
 * state together), so each change goes out once however many instances notice it.
 */
export function createFediversePublishing(
  deps: ServiceDeps & {
    identity: () => Promise<PublishingIdentity>;
    followerInboxes: (db: Database) => Promise<string[]>;
    /** Told when deliveries were queued, so they leave at once rather than at the next poll. */
    onQueued?: () => void;
    options?: Partial<FediversePublishingOptions>;
  },
) {
  const { db, now, logger } = deps;
  const intervalMs = deps.options?.intervalMs ?? 15_000;

  /** One round: queues what differs; answers how many poems it acted on. */
  async function reconcile(): Promise<number> {
    const plans = await plan(deps, db, now());
    if (plans.length === 0) return 0;
    const [identity, inboxes] = await Promise.all([deps.identity(), deps.followerInboxes(db)]);
    let acted = 0;
    for (const step of plans) {
      try {
        if (await act(deps, step, identity, inboxes)) acted += 1;
      } catch (error) {
        logger.error({ err: error, poemId: step.poemId }, "a poem could not be federated");
      }
    }
    if (acted > 0) {
      logger.info({ acted, inboxes: inboxes.length }, "poems federated to followers");
      deps.onQueued?.();
    }
    // The loop's step runs again at once while it finds work; acting on nothing waits a poll.
    return 0;
  }

  const loop = createBackgroundLoop({
    name: "fediverse publishing",
    step: reconcile,
    pollMs: intervalMs,
    logger,
  });

  return {
    reconcile,
    /** Looks now rather than at the next interval (after a content write). */
    wake: loop.wake,
    start: loop.start,
    stop: loop.stop,
  };
}

export type FediversePublishing = ReturnType<typeof createFediversePublishing>;

/** Poems whose followers' copy differs from what readers see, as of `asOf`. */
async function plan(
  deps: Pick<ServiceDeps, "config">,
  executor: Database,
  asOf: Date,
  onlyPoemId?: number,
): Promise<Plan[]> {
  const visible = publishedPoems(asOf);
  const undoPassed = new Date(asOf.getTime() - DELETE_AFTER_UNDO_MS);
  const rows = await executor
    .select({
      poemId: poems.id,
      slug: poems.slug,
      isVisible: sql<boolean>`${visible}`,
      deletedAt: poems.deletedAt,
      hash: contentHash,
      state: fediversePoemState.state,
      sentHash: fediversePoemState.contentHash,
      objectId: fediversePoemState.objectId,
      sentSlug: fediversePoemState.slug,
    })
    .from(poems)
    .leftJoin(fediversePoemState, eq(fediversePoemState.poemId, poems.id))
    .where(
      and(
        onlyPoemId === undefined ? undefined : eq(poems.id, onlyPoemId),
        or(
          and(
            visible,
            or(
              isNull(fediversePoemState.state),
              eq(fediversePoemState.state, "deleted"),
              and(
                eq(fediversePoemState.state, "created"),
                or(
                  sql`${fediversePoemState.contentHash} is distinct from ${contentHash}`,
                  sql`${fediversePoemState.slug} is distinct from ${poems.slug}`,
                ),
              ),
            ),
          ),
          and(sql`not (${visible})`, eq(fediversePoemState.state, "created")),
        ),
      ),
    );
  const plans: Plan[] = [];
  for (const row of rows) {
    const objectId = poemObjectUrl(deps.config.publicUrl, row.slug).href;
    if (row.isVisible) {
      if (row.state === "created" && row.sentSlug !== row.slug) {
        plans.push({ kind: "move", poemId: row.poemId });
      } else if (row.state === "created") {
        if (row.sentHash !== row.hash) plans.push({ kind: "update", poemId: row.poemId });
      } else {
        plans.push({ kind: "create", poemId: row.poemId });
      }
    } else if (!row.deletedAt || row.deletedAt <= undoPassed) {
      plans.push({
        kind: "delete",
        poemId: row.poemId,
        objectId: row.objectId ?? objectId,
        deletedAt: row.deletedAt,
      });
    }
  }
  // Poems purged while their Article was still out (deleted and never reconciled since).
  const orphans = await executor
    .select({ poemId: fediversePoemState.poemId, objectId: fediversePoemState.objectId })
    .from(fediversePoemState)
    .where(
      and(
        onlyPoemId === undefined ? undefined : eq(fediversePoemState.poemId, onlyPoemId),
        eq(fediversePoemState.state, "created"),
        sql`not exists (select 1 from ${poems} where ${poems.id} = ${fediversePoemState.poemId})`,
      ),
    );
  for (const orphan of orphans) {
    if (orphan.objectId) {
      plans.push({
        kind: "delete",
        poemId: orphan.poemId,
        objectId: orphan.objectId,
        deletedAt: null,
      });
    }
  }
  return plans;
}

/** Acts on one poem's plan if no other instance holds it; true when something was queued. */
async function act(
  deps: Pick<ServiceDeps, "db" | "config" | "now">,
  step: Plan,
  identity: PublishingIdentity,
  inboxes: string[],
) {
  const { db } = deps;
  const asOf = deps.now();
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(
      await tx.execute(
        sql`select pg_try_advisory_xact_lock(${POEM_LOCK_CLASS}, ${step.poemId}) as locked`,
      ),
    );
    if (!lock?.locked) return false;
    // Another instance may have acted a moment ago: decide again, now that the poem is ours.
    const [current] = await plan(deps, tx as Database, asOf, step.poemId);
    if (!current || current.kind !== step.kind) return false;
    const { activities, state } = await activitiesFor(
      deps,
      tx as Database,
      identity,
      current,
      asOf,
    );
    // With nobody following, only the state moves on: a later follower is not sent the past.
    for (const { type, activity } of inboxes.length === 0 ? [] : activities) {
      const activityId = activity.id?.href;
      if (!activityId) throw new Error("an activity without an id");
      await enqueueActivity(
        tx,
        { activityId, type, poemId: step.poemId, body: await activityJson(identity, activity) },
        inboxes,
      );
    }
    await tx
      .insert(fediversePoemState)
      .values({ ...state, updatedAt: asOf })
      .onConflictDoUpdate({
        target: fediversePoemState.poemId,
        set: { ...state, updatedAt: asOf },
      });
    return true;
  });
}

/**
 * The id of the Create each poem's followers were last sent, by poem: the outbox lists the same
 * activity under the same id (one id per activity), not one of its own.
 */
export async function sentCreateIds(db: Database, poemIds: number[]): Promise<Map<number, string>> {
  if (poemIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([fediverseActivities.poemId], {
      poemId: fediverseActivities.poemId,
      activityId: fediverseActivities.activityId,
    })
    .from(fediverseActivities)
    .where(
      and(eq(fediverseActivities.type, "Create"), inArray(fediverseActivities.poemId, poemIds)),
    )
    .orderBy(
      fediverseActivities.poemId,
      desc(fediverseActivities.createdAt),
      desc(fediverseActivities.id),
    );
  return new Map(rows.map((row) => [row.poemId, row.activityId]));
}

/**
 * Marks poems as history, never sent to followers (an import brings the poet's past, not news):
 * their state row says so, and reconciliation leaves them alone for good. A poem followers were
 * already sent keeps its row as it is.
 */
export async function markPoemsAsHistory(
  db: Pick<Database, "insert">,
  poemIds: number[],
): Promise<void> {
  if (poemIds.length === 0) return;
  await db
    .insert(fediversePoemState)
    .values(poemIds.map((poemId) => ({ poemId, state: "history" as const })))
    .onConflictDoUpdate({
      target: fediversePoemState.poemId,
      set: { state: "history", contentHash: null },
      setWhere: sql`${fediversePoemState.state} <> 'created'`,
    });
}
