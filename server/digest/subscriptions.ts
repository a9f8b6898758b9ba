import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import * as otherRoutes from "../../common/other-routes.ts";
import * as pages from "../../common/pages.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import { subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import type { Mailer } from "../mail/transport.ts";
import { verificationMessage } from "../mail/verification.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";

export const SUBSCRIBE_MESSAGE = "Please check your email to confirm your subscription.";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A confirmation the mail server refused is tried again after 30 s, 1, 2, 4 ... minutes. */
const VERIFICATION_RETRY_BASE_MS = 30_000;
const VERIFICATION_RETRY_MAX_MS = 60 * 60 * 1000;
/** After this many tries the address is left unconfirmed; subscribing again starts afresh. */
const VERIFICATION_MAX_ATTEMPTS = 10;
/** While one instance is sending a confirmation, others leave it alone this long. */
const VERIFICATION_LEASE_SECONDS = 120;
const VERIFICATION_BATCH = 20;
const retryDelayMs = (attempts: number) =>
  Math.min(VERIFICATION_RETRY_BASE_MS * 2 ** (attempts - 1), VERIFICATION_RETRY_MAX_MS);
/**
 * When a confirmation is tried again: a backoff timed by the database's clock, which claims it
 * (`verificationDueAt <= now()` with a lease) on every instance alike; the site's clock says
 * what "now" is for the product, not how long a mail server is left alone.
 */
const retryAfter = (delayMs: number) => sql`now() + make_interval(secs => ${delayMs / 1000})`;

/** Spreadsheets run cells that start with these: prefix them so they stay text. */
function csvCell(value: string): string {
  const neutral = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(neutral) ? `"${neutral.replaceAll('"', '""')}"` : neutral;
}

/** An address with its local part hidden but for its first and last letters. */
function maskAddress(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const ends = local.length > 2 ? `${local[0]}•••${local.at(-1)}` : `${local[0] ?? ""}•••`;
  return `${ends}${email.slice(at)}`;
}

/**
 * The weekly digest's list (docs/product/digest.md): double opt-in by an emailed link whose token
 * is stored only hashed, and unsubscribe links signed per subscriber.
 */
export function createSubscriptionService(
  deps: ServiceDeps & {
    mailer: Mailer;
    mailSite: MailSiteSource;
    rateLimiter: RateLimiter;
    secret: string;
  },
) {
  const { db, config, mailer, rateLimiter } = deps;
  const sign = (id: number) =>
    createHmac("sha256", deps.secret).update(`unsubscribe:${id}`).digest("base64url");
  const unsubscribeUrl = (id: number) => {
    const url = new URL(pages.unsubscribe, config.publicUrl);
    url.searchParams.set("s", String(id));
    url.searchParams.set("sig", sign(id));
    return url;
  };
  const isDevelopmentMail = config.nodeEnv !== "production" && !config.smtpUrl;

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

  /**
   * Sends the confirmations that are due: claimed with a lease (FOR UPDATE SKIP LOCKED), each
   * with a fresh link, then cleared, or put off with backoff when the mail server still refuses.
   */
  async function sendDueVerifications(): Promise<number> {
    const due = db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(
          lte(subscriptions.verificationDueAt, sql`now()`),
          eq(subscriptions.verified, false),
          eq(subscriptions.unsubscribed, false),
        ),
      )
      .orderBy(asc(subscriptions.verificationDueAt))
      .limit(VERIFICATION_BATCH)
      .for("update", { skipLocked: true });
    const claimed = await db
      .update(subscriptions)
      .set({
        // Whole milliseconds, so the claim can be matched again from a JavaScript Date.
        verificationDueAt: sql`date_trunc('milliseconds', now() + make_interval(secs => ${VERIFICATION_LEASE_SECONDS}))`,
        verificationAttempts: sql`${subscriptions.verificationAttempts} + 1`,
      })
      .where(inArray(subscriptions.id, due))
      .returning({
        id: subscriptions.id,
        email: subscriptions.email,
        attempts: subscriptions.verificationAttempts,
        leaseUntil: subscriptions.verificationDueAt,
      });
    for (const row of claimed) {
      // Only while this claim stands: subscribing again meanwhile has sent its own link.
      const stillOurs = and(
        eq(subscriptions.id, row.id),
        eq(subscriptions.verificationDueAt, row.leaseUntil ?? new Date(0)),
      );
      const verification = newVerification();
      const [current] = await db
        .update(subscriptions)
        .set({ token: verification.tokenHash })
        .where(stillOurs)
        .returning({ id: subscriptions.id });
      if (!current) continue;
      try {
        await sendVerification(row.email, row.id, verification.url);
        await db.update(subscriptions).set({ verificationDueAt: null }).where(stillOurs);
      } catch (error) {
        const isLastTry = row.attempts >= VERIFICATION_MAX_ATTEMPTS;
        deps.logger.warn(
          { err: error, subscriptionId: row.id, attempts: row.attempts },
          isLastTry ? "confirmation email given up" : "confirmation email will be retried",
        );
        await db
          .update(subscriptions)
          .set({
            verificationDueAt: isLastTry ? null : retryAfter(retryDelayMs(row.attempts)),
          })
          .where(stillOurs);
      }
    }
    return claimed.length;
  }

  const verificationRetries = createBackgroundLoop({
    name: "confirmation emails",
    step: sendDueVerifications,
    pollMs: 10_000,
    logger: deps.logger,
  });

  return {
    unsubscribeUrl,
    sendDueVerifications,
    /** Started by the server process; tests call sendDueVerifications themselves. */
    verificationRetries,

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

      const verification = newVerification();
      const fresh = {
        token: verification.tokenHash,
        verified: false,
        verifiedAt: null,
        unsubscribed: false,
        unsubscribedAt: null,
        verificationDueAt: null,
        verificationAttempts: 0,
      };
      const [row] = await db
        .insert(subscriptions)
        .values({ email, ...fresh })
        .onConflictDoUpdate({ target: subscriptions.email, set: fresh })
        .returning({ id: subscriptions.id });
      if (!row) throw new Error("subscription upsert returned nothing");
      try {
        await sendVerification(email, row.id, verification.url);
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

    isValidUnsubscribe(id: number, signature: string): boolean {
      const expected = Buffer.from(sign(id));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },

    /**
     * The address a signed unsubscribe link stands for, masked (`r•••r@example.com`): enough for
     * its reader to know it, not for whoever the link was forwarded to. Undefined when the
     * signature does not match or the subscription is gone.
     */
    async maskedAddress(id: number, signature: string): Promise<string | undefined> {
      if (!this.isValidUnsubscribe(id, signature)) return undefined;
      const [row] = await db
        .select({ email: subscriptions.email })
        .from(subscriptions)
        .where(eq(subscriptions.id, id));
      return row && maskAddress(row.email);
    },

    /** Ends a subscription by its signed link; false when the signature does not match. */
    async unsubscribe(id: number, signature: string): Promise<boolean> {
      if (!this.isValidUnsubscribe(id, signature)) return false;
      await db
        .update(subscriptions)
        .set({ unsubscribed: true, unsubscribedAt: deps.now() })
        .where(and(eq(subscriptions.id, id), eq(subscriptions.unsubscribed, false)));
      return true;
    },

    /** Verified, still-subscribed addresses as CSV, formula cells neutralised (admins only). */
    async exportCsv(_admin: AdminActor): Promise<string> {
      const rows = await db
        .select({
          email: subscriptions.email,
          verifiedAt: subscriptions.verifiedAt,
          createdAt: subscriptions.createdAt,
        })
        .from(subscriptions)
        .where(activeSubscribers)
        .orderBy(asc(subscriptions.createdAt));
      const lines = rows.map((row) =>
        [row.email, row.verifiedAt?.toISOString() ?? "", row.createdAt.toISOString()]
          .map(csvCell)
          .join(","),
      );
      return `${["email,verifiedAt,createdAt", ...lines].join("\r\n")}\r\n`;
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
