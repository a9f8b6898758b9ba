import { and, eq, lte, or, sql } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { digestDeliveries, mailRuns, subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";
import { leasedRows } from "../jobs/leased-rows.ts";

export interface ClaimedDelivery {
  id: number;
  runId: number;
  subscriptionId: number;
  attempts: number;
}

/**
 * The digest's deliveries as claimed rows (server/jobs/leased-rows.ts): claimed in batches with
 * FOR UPDATE SKIP LOCKED and a lease, and every write that settles one made only while this
 * claim still owns it (docs/decisions/006-digest-exactly-once.md).
 */
export function createDeliveryClaims(deps: ServiceDeps) {
  const { db, config } = deps;

  const rows = leasedRows(db, {
    table: digestDeliveries,
    claimable: and(
      sql`exists (select 1 from ${mailRuns} where ${mailRuns.id} = ${digestDeliveries.runId} and ${mailRuns.status} = 'sending')`,
      lte(digestDeliveries.nextAttemptAt, sql`now()`),
      or(
        eq(digestDeliveries.status, "pending"),
        and(eq(digestDeliveries.status, "sending"), lte(digestDeliveries.leaseUntil, sql`now()`)),
      ),
    ),
    orderBy: [digestDeliveries.runId, digestDeliveries.id],
    returning: {
      id: digestDeliveries.id,
      runId: digestDeliveries.runId,
      subscriptionId: digestDeliveries.subscriptionId,
      attempts: digestDeliveries.attempts,
    },
    onClaim: { status: "sending", attempts: sql`${digestDeliveries.attempts} + 1` },
    leaseSeconds: config.digestLeaseSeconds,
  });
  const settle = (delivery: ClaimedDelivery, claimToken: string, values: Record<string, unknown>) =>
    rows.settle(delivery.id, claimToken, values);

  /** Marks the delivery sent, in the same statement that proves the claim and the subscription. */
  async function commitSent(delivery: ClaimedDelivery, claimToken: string): Promise<boolean> {
    const committed = await db
      .update(digestDeliveries)
      .set({
        status: "sent",
        sentAt: deps.now(),
        lastError: null,
        claimedBy: null,
        leaseUntil: null,
      })
      .where(
        and(
          rows.ownedBy(delivery.id, claimToken),
          eq(digestDeliveries.status, "sending"),
          sql`exists (select 1 from ${subscriptions} where ${subscriptions.id} = ${delivery.subscriptionId} and ${activeSubscribers})`,
        ),
      )
      .returning({ id: digestDeliveries.id });
    return committed.length > 0;
  }

  async function settleFailure(
    delivery: ClaimedDelivery,
    claimToken: string,
    isCommitted: boolean,
    values: Record<string, unknown>,
  ) {
    if (!isCommitted) {
      await settle(delivery, claimToken, values);
      return;
    }
    await db
      .update(digestDeliveries)
      .set({ ...values, sentAt: null })
      .where(and(eq(digestDeliveries.id, delivery.id), eq(digestDeliveries.status, "sent")));
  }

  async function markSkippedIfUnsubscribed(delivery: ClaimedDelivery, claimToken: string) {
    const skipped = await db
      .update(digestDeliveries)
      .set({ status: "skipped", claimedBy: null, leaseUntil: null })
      .where(
        and(
          rows.ownedBy(delivery.id, claimToken),
          sql`not exists (select 1 from ${subscriptions} where ${subscriptions.id} = ${delivery.subscriptionId} and ${activeSubscribers})`,
        ),
      )
      .returning({ id: digestDeliveries.id });
    return skipped.length > 0;
  }

  return {
    claim: rows.claim,
    settle,
    commitSent,
    settleFailure,
    markSkippedIfUnsubscribed,
    /** Ends this process's claims after a restart on the embedded database. */
    releaseOwnClaims: () =>
      rows.releaseAll(eq(digestDeliveries.status, "sending"), { status: "pending" }),
  };
}

export type DeliveryClaims = ReturnType<typeof createDeliveryClaims>;
