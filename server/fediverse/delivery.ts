import { desc, eq, inArray, sql } from "drizzle-orm";
import type { PoemDeliveryState } from "../../common/schemas/fediverse-delivery.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { fediverseActivities, fediverseBlocks, fediverseDeliveries, poems } from "../db/schema.ts";
import { createLeasedQueue } from "../jobs/leased-queue.ts";
import { createSlots, deliver } from "./delivery-attempt.ts";
import { createInboxPoster } from "./delivery-posts.ts";
import { activityBodies, type ClaimedDelivery, deliveryRows, sentMarks } from "./delivery-rows.ts";

/** The actor's RSA key, with which every POST is signed (draft-cavage, as Mastodon expects). */
export interface DeliverySigner {
  keyId: URL;
  privateKey: CryptoKey;
}

export interface FediverseDeliveryOptions {
  /** Deliveries claimed per round trip. */
  batchSize: number;
  /** POSTs in flight at once on this instance: also the most a crash can re-send. */
  concurrency: number;
  /**
   * Signatures made at once. Each RSA signature is made on libuv's thread pool (about 1 ms,
   * server/fediverse/http-signature.ts); one at a time leaves the other core to readers' pages
   * while the other POSTs wait for their answers.
   */
  signingSlots: number;
  /** A POST with no answer after this long counts as a timeout, retried like a 5xx. */
  requestTimeoutMs: number;
  /** A temporary failure is retried after retryBaseMs × 2^(attempt − 1), at most retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Retried for this long after the activity was queued, then failed for good. */
  retryForMs: number;
  /** How long a claim is this instance's before another may send the row (a crash's bound). */
  leaseSeconds: number;
  /** How often an idle sender looks for work that another instance queued. */
  pollMs: number;
}

const HOUR_MS = 60 * 60 * 1000;

export const DELIVERY_DEFAULTS: FediverseDeliveryOptions = {
  batchSize: 64,
  concurrency: 8,
  signingSlots: 1,
  requestTimeoutMs: 10_000,
  retryBaseMs: 60_000,
  retryMaxMs: 6 * HOUR_MS,
  retryForMs: 48 * HOUR_MS,
  leaseSeconds: 60,
  pollMs: 2_000,
};

/**
 * Queues activities for followers' inboxes and delivers them, on every instance at once
 * (docs/decisions/047-fediverse-delivery.md). One row per (activity, inbox), claimed with
 * FOR UPDATE SKIP LOCKED and a lease; the claim is written before the POST goes, the 2xx is
 * recorded the moment it is answered, and a row is never claimed again once sent. A crash
 * between the answer and that record leaves the row to be sent again after the lease: at most
 * the POSTs in flight, which receivers drop by the activity's id.
 */
export function createFediverseDelivery(
  deps: ServiceDeps & {
    signer: () => Promise<DeliverySigner>;
    allowPrivateAddresses: boolean;
    options?: Partial<FediverseDeliveryOptions>;
  },
) {
  const { db, logger } = deps;
  const options = { ...DELIVERY_DEFAULTS, ...deps.options };
  const poster = createInboxPoster(options, deps.allowPrivateAddresses);
  const rows = deliveryRows(db, options.leaseSeconds);
  const parts = {
    deps,
    options,
    rows,
    bodies: activityBodies(db),
    signing: createSlots(options.signingSlots),
    post: poster.post,
  };

  const queue = createLeasedQueue({
    name: "fediverse delivery",
    logger,
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    claim: rows.claim,
    async prepare(claimed: ClaimedDelivery[], claimToken) {
      await parts.bodies.load([...new Set(claimed.map((delivery) => delivery.activityId))]);
      const blockedServers = new Set(
        (
          await db
            .select({ value: fediverseBlocks.value })
            .from(fediverseBlocks)
            .where(eq(fediverseBlocks.kind, "server"))
        ).map((row) => row.value),
      );
      return { signer: await deps.signer(), markSent: sentMarks(deps, claimToken), blockedServers };
    },
    worker: (batch, claimToken) => ({
      handle: (delivery) =>
        deliver(parts, delivery, claimToken, batch.signer, batch.markSent, batch.blockedServers),
    }),
    logged: { message: "fediverse deliveries sent" },
    releaseOwnClaims: () =>
      rows.releaseAll(inArray(fediverseDeliveries.state, ["pending", "retrying"])),
  });

  return {
    ...queue,
    async stop(): Promise<void> {
      await queue.stop();
      poster.close();
    },
  };
}

export type FediverseDelivery = ReturnType<typeof createFediverseDelivery>;

/**
 * Records an activity and one pending delivery per inbox (deduplicated), in the caller's
 * transaction, so the activity and its deliveries exist together or not at all.
 */
export async function enqueueActivity(
  tx: Pick<Database, "insert">,
  activity: {
    activityId: string;
    type: "Create" | "Update" | "Delete";
    poemId: number;
    body: Record<string, unknown>;
  },
  inboxes: string[],
): Promise<number> {
  const [row] = await tx
    .insert(fediverseActivities)
    .values(activity)
    .returning({ id: fediverseActivities.id });
  if (!row) throw new Error("the activity was not recorded");
  const unique = [...new Set(inboxes)];
  for (let start = 0; start < unique.length; start += 1000) {
    await tx
      .insert(fediverseDeliveries)
      .values(unique.slice(start, start + 1000).map((inbox) => ({ activityId: row.id, inbox })))
      .onConflictDoNothing();
  }
  return row.id;
}

/**
 * Per poem that followers were sent anything about: its deliveries counted by state, and its
 * latest activity, newest first (the admin's fediverse page).
 */
export async function deliveryStateByPoem(db: Database): Promise<PoemDeliveryState[]> {
  const counted = (state: string) =>
    sql<number>`count(${fediverseDeliveries.id}) filter (where ${fediverseDeliveries.state} = ${state})::int`;
  const rows = await db
    .select({
      poemId: fediverseActivities.poemId,
      title: poems.title,
      slug: poems.slug,
      sent: counted("sent"),
      retrying: sql<number>`count(${fediverseDeliveries.id}) filter (where ${fediverseDeliveries.state} in ('pending', 'retrying'))::int`,
      failed: counted("failed"),
      lastAt: sql<Date>`max(${fediverseActivities.createdAt})`.mapWith(
        fediverseActivities.createdAt,
      ),
      lastType: sql<
        PoemDeliveryState["lastActivity"]["type"]
      >`(array_agg(${fediverseActivities.type} order by ${fediverseActivities.createdAt} desc, ${fediverseActivities.id} desc))[1]`,
    })
    .from(fediverseActivities)
    .leftJoin(fediverseDeliveries, eq(fediverseDeliveries.activityId, fediverseActivities.id))
    .leftJoin(poems, eq(poems.id, fediverseActivities.poemId))
    .groupBy(fediverseActivities.poemId, poems.title, poems.slug)
    .orderBy(sql`max(${fediverseActivities.createdAt}) desc`, desc(fediverseActivities.poemId));
  return rows.map(({ lastAt, lastType, ...row }) => ({
    ...row,
    lastActivity: { type: lastType, at: lastAt },
  }));
}
