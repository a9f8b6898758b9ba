import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { fediverseActivities, fediverseDeliveries } from "../db/schema.ts";
import { leasedRows } from "../jobs/leased-rows.ts";
import { bodyDigest } from "./http-signature.ts";

/**
 * What the delivery queue (server/fediverse/delivery.ts) reads and writes: its leased rows, one
 * per (activity, inbox), the activities' bodies they send, and the 2xx answers recorded.
 */

export interface ClaimedDelivery {
  id: number;
  activityId: number;
  inbox: string;
  attempts: number;
}

/** Deliveries due now and held by no live lease, claimed oldest first with their attempt counted. */
export function deliveryRows(db: Database, leaseSeconds: number) {
  return leasedRows(db, {
    table: fediverseDeliveries,
    claimable: and(
      inArray(fediverseDeliveries.state, ["pending", "retrying"]),
      lte(fediverseDeliveries.nextAttemptAt, sql`now()`),
      or(isNull(fediverseDeliveries.leaseUntil), lte(fediverseDeliveries.leaseUntil, sql`now()`)),
    ),
    orderBy: [fediverseDeliveries.nextAttemptAt, fediverseDeliveries.id],
    returning: {
      id: fediverseDeliveries.id,
      activityId: fediverseDeliveries.activityId,
      inbox: fediverseDeliveries.inbox,
      attempts: fediverseDeliveries.attempts,
    },
    onClaim: { attempts: sql`${fediverseDeliveries.attempts} + 1` },
    leaseSeconds,
  });
}

export type DeliveryRows = ReturnType<typeof deliveryRows>;

/** Activity bodies by row id, serialised once per instance and shared by all their inboxes. */
export function activityBodies(db: Database) {
  const bodies = new Map<number, { json: string; digest: string }>();
  return {
    get: (activityId: number) => bodies.get(activityId),

    async load(activityIds: number[]) {
      const missing = activityIds.filter((id) => !bodies.has(id));
      if (missing.length === 0) return;
      const rows = await db
        .select({ id: fediverseActivities.id, body: fediverseActivities.body })
        .from(fediverseActivities)
        .where(inArray(fediverseActivities.id, missing));
      for (const row of rows) {
        const json = JSON.stringify(row.body);
        bodies.set(row.id, { json, digest: bodyDigest(json) });
      }
    },
  };
}

export type ActivityBodies = ReturnType<typeof activityBodies>;

/**
 * Records 2xx answers together: an answer waits for the write in progress, if any, and goes in
 * the next one, so a busy fan-out writes one UPDATE per handful of answers rather than one
 * each. A worker starts its next POST only once its last answer is recorded, so a crash still
 * re-sends at most the POSTs in flight.
 */
export function sentMarks(deps: Pick<ServiceDeps, "db" | "now">, claimToken: string) {
  const { db } = deps;
  let waiting: { id: number; status: number }[] = [];
  let writing: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  async function write(rows: { id: number; status: number }[]) {
    for (const status of new Set(rows.map((row) => row.status))) {
      const ids = rows.filter((row) => row.status === status).map((row) => row.id);
      await db
        .update(fediverseDeliveries)
        .set({
          state: "sent",
          sentAt: deps.now(),
          lastStatus: status,
          lastError: null,
          claimedBy: null,
          leaseUntil: null,
        })
        .where(
          and(inArray(fediverseDeliveries.id, ids), eq(fediverseDeliveries.claimedBy, claimToken)),
        );
    }
  }
  return (id: number, status: number): Promise<void> => {
    waiting.push({ id, status });
    next ??= (async () => {
      await writing?.catch(() => {});
      const rows = waiting;
      waiting = [];
      next = undefined;
      writing = write(rows);
      await writing;
    })();
    return next;
  };
}
