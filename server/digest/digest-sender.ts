import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import * as otherRoutes from "../../common/other-routes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { digestDeliveries, mailRuns, subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";
import { createLeasedQueue } from "../jobs/leased-queue.ts";
import { leasedRows } from "../jobs/leased-rows.ts";
import { digestEmail } from "../mail/digest.ts";
import type { MailChannel, Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";

export interface DigestSenderOptions {
  /** Deliveries claimed per round trip. */
  batchSize: number;
  /** Messages in flight at once (the SMTP pool keeps 3 connections). */
  concurrency: number;
  /** A temporary failure is retried after retryBaseMs × 2^(attempt − 1). */
  retryBaseMs: number;
  maxAttempts: number;
  /** This many temporary failures in a row, with no success between, pause the run. */
  pauseAfterFailures: number;
  /** How often an idle sender looks for work that another instance queued. */
  pollMs: number;
}

const DEFAULTS: DigestSenderOptions = {
  batchSize: 30,
  concurrency: 3,
  retryBaseMs: 5_000,
  maxAttempts: 5,
  pauseAfterFailures: 10,
  pollMs: 2_000,
};

/** The SMTP server itself answered (with a code), as opposed to a failed connection. */
function hasSmtpAnswer(error: unknown): boolean {
  return typeof (error as { responseCode?: unknown }).responseCode === "number";
}

/** An SMTP 5xx answer: the address or message is refused for good, so retrying cannot help. */
function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

interface ClaimedDelivery {
  id: number;
  runId: number;
  subscriptionId: number;
  attempts: number;
}

/**
 * Sends queued digest deliveries in the background, on every instance at once.
 *
 * Deliveries are claimed in batches with FOR UPDATE SKIP LOCKED and a lease, so two instances
 * never hold the same row. Each email is streamed to the SMTP server whole, then the row is marked
 * sent — only if this claim still owns it and the address is still subscribed — and only then
 * is the final "." written (MailChannel `commit`). A crash before that mark leaves a row the
 * server never accepted, which is sent again after the lease; a crash after it leaves a sent
 * row. Either way no subscriber gets two copies of one run (decision 006).
 */
export function createDigestSender(
  deps: ServiceDeps & {
    mailer: Mailer;
    mailSite: MailSiteSource;
    unsubscribeUrl: (subscriptionId: number) => URL;
    /** A digest link's click redirect: the run and the link's position, no subscriber. */
    digestLinkUrl: (runId: number, position: number) => string;
    options?: Partial<DigestSenderOptions>;
  },
) {
  const { db, config, logger, mailer } = deps;
  const options = { ...DEFAULTS, ...deps.options };
  let consecutiveFailures = 0;

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

  type Outcome =
    | { kind: "sent" | "skipped" | "lost" }
    | { kind: "failed" | "retry"; error: string };

  async function deliver(
    channel: MailChannel,
    delivery: ClaimedDelivery,
    claimToken: string,
    recipient: { email: string; name: string | null },
    run: { subject: string; content: typeof mailRuns.$inferSelect.content },
  ): Promise<Outcome> {
    const unsubscribeUrl = deps.unsubscribeUrl(delivery.subscriptionId);
    const oneClick = new URL(unsubscribeUrl);
    oneClick.pathname = otherRoutes.unsubscribe.path;
    const site = await deps.mailSite();
    const { html, text } = digestEmail(
      site,
      run.content,
      {
        publicUrl: config.publicUrl.toString(),
        unsubscribeUrl,
        linkUrl: (position) => deps.digestLinkUrl(delivery.runId, position),
      },
      recipient,
    );
    // An object, not a `let`: the commit step assigns it inside a callback.
    const commit: { state: "not yet" | "done" | "refused"; step?: Promise<void> } = {
      state: "not yet",
    };
    try {
      await channel.send(
        {
          to: recipient.email,
          subject: run.subject,
          html,
          text,
          fromName: site.name,
          messageId: `<digest-${delivery.runId}-${delivery.subscriptionId}@${config.publicUrl.hostname}>`,
          headers: {
            "List-Unsubscribe": `<${oneClick}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        },
        () => {
          commit.step = commitSent(delivery, claimToken).then((isCommitted) => {
            commit.state = isCommitted ? "done" : "refused";
            if (!isCommitted) throw new Error("delivery no longer ours to send");
          });
          return commit.step;
        },
      );
      return { kind: "sent" };
    } catch (error) {
      // The connection may fail while the commit is still on its way: know its outcome first.
      await commit.step?.catch(() => {});
      if (commit.state === "refused") {
        return {
          kind: (await markSkippedIfUnsubscribed(delivery, claimToken)) ? "skipped" : "lost",
        };
      }
      const isCommitted = commit.state === "done";
      // Marked sent and then the connection failed: the final "." may have reached the server,
      // so sending again could be a second copy. It stays sent (a copy may be lost, never doubled).
      if (isCommitted && !hasSmtpAnswer(error)) {
        logger.warn(
          { err: error, deliveryId: delivery.id },
          "digest delivery's connection failed after it was marked sent; not sent again",
        );
        return { kind: "sent" };
      }
      // The server answered the final "." with a refusal: it did not take the message after all.
      if (isPermanentFailure(error) || delivery.attempts >= options.maxAttempts) {
        await settleFailure(delivery, claimToken, isCommitted, {
          status: "failed",
          lastError: errorText(error),
        });
        return { kind: "failed", error: errorText(error) };
      }
      const delayMs = options.retryBaseMs * 2 ** (delivery.attempts - 1);
      await settleFailure(delivery, claimToken, isCommitted, {
        status: "pending",
        lastError: errorText(error),
        // A backoff, timed by the clock every instance claims by (`nextAttemptAt <= now()` and
        // the lease): the database's. The site's clock stamps when things happened (sentAt).
        nextAttemptAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      });
      return { kind: "retry", error: errorText(error) };
    }
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

  /** Refreshes sentCount and closes runs with nothing left to send. */
  async function updateRuns(runIds: number[]) {
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

  async function pause(runId: number, reason: string) {
    logger.warn({ runId, reason }, "digest run paused after repeated mail failures");
    await db
      .update(mailRuns)
      .set({ status: "paused", pausedReason: reason })
      .where(and(eq(mailRuns.id, runId), eq(mailRuns.status, "sending")));
  }

  /** What a batch of deliveries shares: their runs and recipients, read once. */
  async function readBatch(claimed: ClaimedDelivery[]) {
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

  /** One delivery of the batch, on the worker's own SMTP connection. */
  async function send(
    channel: MailChannel,
    delivery: ClaimedDelivery,
    claimToken: string,
    batch: Awaited<ReturnType<typeof readBatch>>,
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
        await pause(delivery.runId, `Mail server failing: ${outcome.error}`);
      }
    }
    return outcome.kind;
  }

  /** Works on every instance at once; `drain` sends what is due now (tests and the CLI). */
  const queue = createLeasedQueue({
    name: "digest sending",
    logger,
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    claim: rows.claim,
    prepare: readBatch,
    worker: (batch, claimToken) => {
      const channel = mailer.openChannel();
      return {
        handle: (delivery) => send(channel, delivery, claimToken, batch),
        close: () => channel.close(),
      };
    },
    finish: (_claimed, batch) => updateRuns(batch.runIds),
    logged: {
      message: "digest batch sent",
      fields: (claimed) => ({ runIds: [...new Set(claimed.map((delivery) => delivery.runId))] }),
    },
    releaseOwnClaims: () =>
      rows.releaseAll(eq(digestDeliveries.status, "sending"), { status: "pending" }),
  });

  return queue;
}

export type DigestSender = ReturnType<typeof createDigestSender>;
