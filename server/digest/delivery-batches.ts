import { and, eq, inArray, sql } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { digestDeliveries, mailRuns, subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";
import type { MailChannel } from "../mail/transport.ts";
import type { ClaimedDelivery, DeliveryClaims } from "./delivery-claims.ts";
import type { DigestDelivery, Outcome } from "./digest-delivery.ts";
import type { DigestSenderOptions } from "./digest-sender.ts";

/**
 * A claimed batch of deliveries: what they share read once, each one sent (or released or
 * skipped), a run paused when the mail server keeps failing, and the runs closed once their
 * deliveries are all settled.
 */

/** What a batch of deliveries shares: their runs and recipients, read once. */
export async function readBatch(deps: ServiceDeps, claimed: ClaimedDelivery[]) {
  const { db } = deps;
  const runIds = [...new Set(claimed.map((delivery) => delivery.runId))];
  const runs = new Map(
    (
      await db
        .select({ id: mailRuns.id, subject: mailRuns.subject, content: mailRuns.content })
        .from(mailRuns)
        .where(inArray(mailRuns.id, runIds))
    ).map((run) => [run.id, run]),
  );
  const recipients = new Map(
    (
      await db
        .select({
          id: subscriptions.id,
          email: subscriptions.email,
          name: subscriptions.name,
          isActive: sql<boolean>`${activeSubscribers}`,
        })
        .from(subscriptions)
        .where(
          inArray(
            subscriptions.id,
            claimed.map((delivery) => delivery.subscriptionId),
          ),
        )
    ).map((row) => [row.id, row]),
  );
  return { runIds, runs, recipients, pausedRuns: new Set<number>() };
}

export type DeliveryBatch = Awaited<ReturnType<typeof readBatch>>;

/** Refreshes sentCount and closes runs with nothing left to send. */
export async function updateRuns(deps: ServiceDeps, runIds: number[]) {
  const { db } = deps;
  for (const runId of runIds) {
    await db
      .update(mailRuns)
      .set({
        sentCount: sql`(select count(*) from ${digestDeliveries} where ${digestDeliveries.runId} = ${runId} and ${digestDeliveries.status} = 'sent')::int`,
      })
      .where(eq(mailRuns.id, runId));
    await db
      .update(mailRuns)
      .set({ status: "sent", completedAt: deps.now(), pausedReason: null })
      .where(
        and(
          eq(mailRuns.id, runId),
          eq(mailRuns.status, "sending"),
          sql`not exists (select 1 from ${digestDeliveries} where ${digestDeliveries.runId} = ${runId} and ${digestDeliveries.status} in ('pending', 'sending'))`,
        ),
      );
  }
}

async function pause(deps: ServiceDeps, runId: number, reason: string) {
  deps.logger.warn({ runId, reason }, "digest run paused after repeated mail failures");
  await deps.db
    .update(mailRuns)
    .set({ status: "paused", pausedReason: reason })
    .where(and(eq(mailRuns.id, runId), eq(mailRuns.status, "sending")));
}

/**
 * Sends the deliveries of batches, counting the mail server's temporary failures in a row
 * across them: one count per sender.
 */
export function createBatchSend(
  deps: ServiceDeps,
  options: Pick<DigestSenderOptions, "pauseAfterFailures">,
  claims: DeliveryClaims,
  deliver: DigestDelivery,
) {
  const { settle } = claims;
  let consecutiveFailures = 0;

  /** One delivery of the batch, on the worker's own SMTP connection. */
  return async function send(
    channel: MailChannel,
    delivery: ClaimedDelivery,
    claimToken: string,
    batch: DeliveryBatch,
  ): Promise<Outcome["kind"] | "released"> {
    const run = batch.runs.get(delivery.runId);
    const recipient = batch.recipients.get(delivery.subscriptionId);
    if (!run || !recipient?.isActive || batch.pausedRuns.has(delivery.runId)) {
      // Gone, unsubscribed since the run began, or its run just paused: release or skip it.
      if (recipient?.isActive && run) {
        await settle(delivery, claimToken, {
          status: "pending",
          attempts: sql`${digestDeliveries.attempts} - 1`,
        });
        return "released";
      }
      await settle(delivery, claimToken, { status: "skipped" });
      return "skipped";
    }
    const outcome = await deliver(channel, delivery, claimToken, recipient, run);
    if (outcome.kind === "sent") consecutiveFailures = 0;
    if (outcome.kind === "retry") {
      consecutiveFailures += 1;
      if (consecutiveFailures >= options.pauseAfterFailures) {
        batch.pausedRuns.add(delivery.runId);
        await pause(deps, delivery.runId, `Mail server failing: ${outcome.error}`);
      }
    }
    return outcome.kind;
  };
}
