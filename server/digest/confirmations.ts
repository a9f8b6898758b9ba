import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import * as otherRoutes from "../../common/other-routes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { subscriptions } from "../db/schema.ts";
import { leasedRows } from "../jobs/leased-rows.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import type { Mailer } from "../mail/transport.ts";
import { verificationMessage } from "../mail/verification.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A confirmation the mail server refused is tried again after 30 s, 1, 2, 4 ... minutes. */
const VERIFICATION_RETRY_BASE_MS = 30_000;
const VERIFICATION_RETRY_MAX_MS = 60 * 60 * 1000;
/** After this many tries the address is left unconfirmed; subscribing again starts afresh. */
const VERIFICATION_MAX_ATTEMPTS = 10;
/** While one instance is sending a confirmation, others leave it alone this long. */
const VERIFICATION_LEASE_SECONDS = 120;
const VERIFICATION_BATCH = 20;
export const retryDelayMs = (attempts: number) =>
  Math.min(VERIFICATION_RETRY_BASE_MS * 2 ** (attempts - 1), VERIFICATION_RETRY_MAX_MS);
/**
 * When a confirmation is tried again: a backoff timed by the database's clock, by which every
 * instance claims it (`verificationDueAt <= now()`) alike; the site's clock says
 * what "now" is for the product, not how long a mail server is left alone.
 */
export const retryAfter = (delayMs: number) =>
  sql`now() + make_interval(secs => ${delayMs / 1000})`;

/** The confirmation email: a link to confirm the address by, and one to unsubscribe by. */
export function createConfirmationMail(
  deps: ServiceDeps & { mailer: Mailer; mailSite: MailSiteSource },
  unsubscribeUrl: (subscriptionId: number) => URL,
) {
  const { config, mailer } = deps;

  /** A fresh confirmation link for the subscription (only the token's hash is kept). */
  const newVerification = () => {
    const token = randomBytes(32).toString("base64url");
    const url = new URL(otherRoutes.verifySubscription.path, config.publicUrl);
    url.searchParams.set("token", token);
    return { tokenHash: hashToken(token), url };
  };
  const sendVerification = async (email: string, subscriptionId: number, verifyUrl: URL) =>
    mailer.send(
      verificationMessage(await deps.mailSite(), email, verifyUrl, unsubscribeUrl(subscriptionId)),
    );

  return { newVerification, sendVerification };
}

export type ConfirmationMail = ReturnType<typeof createConfirmationMail>;

/** The confirmations the mail server refused, sent again in the background on every instance. */
export function confirmationRetries(deps: ServiceDeps, mail: ConfirmationMail) {
  const { db } = deps;
  const owed = leasedRows(db, {
    table: subscriptions,
    claimable: and(
      lte(subscriptions.verificationDueAt, sql`now()`),
      eq(subscriptions.verified, false),
      eq(subscriptions.unsubscribed, false),
      or(isNull(subscriptions.leaseUntil), lt(subscriptions.leaseUntil, sql`now()`)),
    ),
    orderBy: [asc(subscriptions.verificationDueAt)],
    returning: {
      id: subscriptions.id,
      email: subscriptions.email,
      attempts: subscriptions.verificationAttempts,
    },
    onClaim: { verificationAttempts: sql`${subscriptions.verificationAttempts} + 1` },
    leaseSeconds: VERIFICATION_LEASE_SECONDS,
  });

  /**
   * Sends the confirmations that are due, claimed with a lease (server/jobs/leased-rows.ts), each
   * with a fresh link, then cleared, or put off with backoff when the mail server still refuses.
   */
  async function sendDueVerifications(): Promise<number> {
    const claimToken = randomUUID();
    const claimed = await owed.claim(claimToken, VERIFICATION_BATCH);
    for (const row of claimed) {
      // Only while this claim stands: subscribing again meanwhile has sent its own link.
      const verification = mail.newVerification();
      const [current] = await db
        .update(subscriptions)
        .set({ token: verification.tokenHash })
        .where(owed.ownedBy(row.id, claimToken))
        .returning({ id: subscriptions.id });
      if (!current) continue;
      try {
        await mail.sendVerification(row.email, row.id, verification.url);
        await owed.settle(row.id, claimToken, { verificationDueAt: null });
      } catch (error) {
        const isLastTry = row.attempts >= VERIFICATION_MAX_ATTEMPTS;
        deps.logger.warn(
          { err: error, subscriptionId: row.id, attempts: row.attempts },
          isLastTry ? "confirmation email given up" : "confirmation email will be retried",
        );
        await owed.settle(row.id, claimToken, {
          verificationDueAt: isLastTry ? null : retryAfter(retryDelayMs(row.attempts)),
        });
      }
    }
    return claimed.length;
  }

  return {
    sendDueVerifications,
    /** Started by the server process; tests call sendDueVerifications themselves. */
    verificationRetries: {
      ...createBackgroundLoop({
        name: "confirmation emails",
        step: sendDueVerifications,
        pollMs: 10_000,
        logger: deps.logger,
      }),
      releaseOwnClaims: () => owed.releaseAll(isNotNull(subscriptions.claimedBy)),
    },
  };
}
