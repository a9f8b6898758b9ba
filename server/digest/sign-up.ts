import { and, eq } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import { subscriptions } from "../db/schema.ts";
import { type ConfirmationMail, hashToken, retryAfter, retryDelayMs } from "./confirmations.ts";

export const SUBSCRIBE_MESSAGE = "Please check your email to confirm your subscription.";

/** Subscribing by the site's form, and confirming by the emailed link (double opt-in). */
export function signUp(deps: ServiceDeps & { rateLimiter: RateLimiter }, mail: ConfirmationMail) {
  const { db, config, rateLimiter } = deps;
  const isDevelopmentMail = config.nodeEnv !== "production" && !config.smtpUrl;

  return {
    /**
     * Creates or refreshes an unverified subscription and mails its confirmation link. Answers
     * the same for new, pending and verified addresses; a verified one is not mailed again.
     */
    async subscribe(
      email: string,
      clientAddress: string,
    ): Promise<{ message: string; verificationUrl?: string }> {
      await rateLimiter.consume(RATE_LIMITS.subscribePerIp, clientAddress);
      await rateLimiter.consume(RATE_LIMITS.subscribePerEmail, email);
      const [existing] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.email, email));
      if (existing?.verified && !existing.unsubscribed) return { message: SUBSCRIBE_MESSAGE };

      const verification = mail.newVerification();
      const fresh = {
        token: verification.tokenHash,
        verified: false,
        verifiedAt: null,
        unsubscribed: false,
        unsubscribedAt: null,
        verificationDueAt: null,
        verificationAttempts: 0,
        // A retry in flight for the old link loses its claim: this one is sent now.
        claimedBy: null,
        leaseUntil: null,
      };
      const [row] = await db
        .insert(subscriptions)
        .values({ email, ...fresh })
        .onConflictDoUpdate({ target: subscriptions.email, set: fresh })
        .returning({ id: subscriptions.id });
      if (!row) throw new Error("subscription upsert returned nothing");
      try {
        await mail.sendVerification(email, row.id, verification.url);
      } catch (error) {
        // Nothing is lost: the confirmation goes out when the mail server is back.
        deps.logger.warn({ err: error, subscriptionId: row.id }, "confirmation email queued");
        await db
          .update(subscriptions)
          .set({
            verificationDueAt: retryAfter(retryDelayMs(1)),
            verificationAttempts: 1,
          })
          .where(eq(subscriptions.id, row.id));
      }
      return isDevelopmentMail
        ? { message: SUBSCRIBE_MESSAGE, verificationUrl: verification.url.toString() }
        : { message: SUBSCRIBE_MESSAGE };
    },

    /** Marks the subscription verified; repeating it is harmless. False for an unknown token. */
    async verify(token: string): Promise<boolean> {
      const [row] = await db
        .select({ id: subscriptions.id, verified: subscriptions.verified })
        .from(subscriptions)
        .where(
          and(eq(subscriptions.token, hashToken(token)), eq(subscriptions.unsubscribed, false)),
        );
      if (!row) return false;
      if (!row.verified) {
        await db
          .update(subscriptions)
          .set({ verified: true, verifiedAt: deps.now() })
          .where(eq(subscriptions.id, row.id));
      }
      return true;
    },
  };
}
