import type { ServiceDeps } from "../core/deps.ts";
import { createLeasedQueue } from "../jobs/leased-queue.ts";
import type { Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { createBatchSend, readBatch, updateRuns } from "./delivery-batches.ts";
import { createDeliveryClaims } from "./delivery-claims.ts";
import { createDigestDelivery } from "./digest-delivery.ts";

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

export type DigestSenderDeps = ServiceDeps & {
  mailer: Mailer;
  mailSite: MailSiteSource;
  unsubscribeUrl: (subscriptionId: number) => URL;
  /** A digest link's click redirect: the run and the link's position, no subscriber. */
  digestLinkUrl: (runId: number, position: number) => string;
  options?: Partial<DigestSenderOptions>;
};

/**
 * Sends queued digest deliveries in the background, on every instance at once.
 *
 * Deliveries are claimed in batches with FOR UPDATE SKIP LOCKED and a lease, so two instances
 * never hold the same row (delivery-claims.ts). Each email is streamed to the SMTP server whole,
 * then the row is marked sent — only if this claim still owns it and the address is still
 * subscribed — and only then is the final "." written (MailChannel `commit`, digest-delivery.ts).
 * A crash before that mark leaves a row the server never accepted, which is sent again after the
 * lease; a crash after it leaves a sent row. Either way no subscriber gets two copies of one run
 * (decision 006).
 */
export function createDigestSender(deps: DigestSenderDeps) {
  const { logger, mailer } = deps;
  const options = { ...DEFAULTS, ...deps.options };
  const claims = createDeliveryClaims(deps);
  const deliver = createDigestDelivery(deps, options, claims);
  const send = createBatchSend(deps, options, claims, deliver);

  /** Works on every instance at once; `drain` sends what is due now (tests and the CLI). */
  const queue = createLeasedQueue({
    name: "digest sending",
    logger,
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    claim: claims.claim,
    prepare: (claimed) => readBatch(deps, claimed),
    worker: (batch, claimToken) => {
      const channel = mailer.openChannel();
      return {
        handle: (delivery) => send(channel, delivery, claimToken, batch),
        close: () => channel.close(),
      };
    },
    finish: (_claimed, batch) => updateRuns(deps, batch.runIds),
    logged: {
      message: "digest batch sent",
      fields: (claimed) => ({ runIds: [...new Set(claimed.map((delivery) => delivery.runId))] }),
    },
    releaseOwnClaims: claims.releaseOwnClaims,
  });

  return queue;
}

export type DigestSender = ReturnType<typeof createDigestSender>;
