import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { subscriptions } from "../db/schema.ts";
import type { Mailer } from "../mail/transport.ts";
import { verificationMessage } from "../mail/verification.ts";
import type { Actor } from "./actor.ts";
import type { ServiceDeps } from "./deps.ts";
import { forbidden, unauthorized, unavailable } from "./errors.ts";
import { RATE_LIMITS, type RateLimiter } from "./rate-limit.ts";

export const SUBSCRIBE_MESSAGE = "Please check your email to confirm your subscription.";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Spreadsheets run cells that start with these: prefix them so they stay text. */
function csvCell(value: string): string {
  const neutral = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(neutral) ? `"${neutral.replaceAll('"', '""')}"` : neutral;
}

/**
 * The weekly digest's list (SPEC.md §3, §4): double opt-in by an emailed link whose token is
 * stored only hashed, and unsubscribe links signed per subscriber.
 */
export function createSubscriptionService(
  deps: ServiceDeps & { mailer: Mailer; rateLimiter: RateLimiter; secret: string },
) {
  const { db, config, mailer, rateLimiter } = deps;
  const sign = (id: number) =>
    createHmac("sha256", deps.secret).update(`unsubscribe:${id}`).digest("base64url");
  const unsubscribeUrl = (id: number) => {
    const url = new URL("/unsubscribe", config.publicUrl);
    url.searchParams.set("s", String(id));
    url.searchParams.set("sig", sign(id));
    return url;
  };
  const isDevelopmentMail = config.nodeEnv !== "production" && !config.smtpUrl;

  return {
    unsubscribeUrl,

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

      const token = randomBytes(32).toString("base64url");
      const fresh = {
        token: hashToken(token),
        verified: false,
        verifiedAt: null,
        unsubscribed: false,
        unsubscribedAt: null,
      };
      const [row] = await db
        .insert(subscriptions)
        .values({ email, ...fresh })
        .onConflictDoUpdate({ target: subscriptions.email, set: fresh })
        .returning({ id: subscriptions.id });
      if (!row) throw new Error("subscription upsert returned nothing");
      const verifyUrl = new URL("/api/subscribe/verify", config.publicUrl);
      verifyUrl.searchParams.set("token", token);
      try {
        await mailer.send(
          verificationMessage(config.siteName, email, verifyUrl, unsubscribeUrl(row.id)),
        );
      } catch (error) {
        deps.logger.error({ err: error }, "verification mail could not be sent");
        // The row stays unverified; asking again sends a fresh link.
        throw unavailable("Failed to subscribe");
      }
      return isDevelopmentMail
        ? { message: SUBSCRIBE_MESSAGE, verificationUrl: verifyUrl.toString() }
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
          .set({ verified: true, verifiedAt: new Date() })
          .where(eq(subscriptions.id, row.id));
      }
      return true;
    },

    isValidUnsubscribe(id: number, signature: string): boolean {
      const expected = Buffer.from(sign(id));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },

    /** Ends a subscription by its signed link; false when the signature does not match. */
    async unsubscribe(id: number, signature: string): Promise<boolean> {
      if (!this.isValidUnsubscribe(id, signature)) return false;
      await db
        .update(subscriptions)
        .set({ unsubscribed: true, unsubscribedAt: new Date() })
        .where(and(eq(subscriptions.id, id), eq(subscriptions.unsubscribed, false)));
      return true;
    },

    /** Verified, still-subscribed addresses as CSV, formula cells neutralised (admins only). */
    async exportCsv(actor: Actor): Promise<string> {
      if (!actor) throw unauthorized();
      if (actor.role !== "ADMIN") throw forbidden("Admin access required");
      const rows = await db
        .select({
          email: subscriptions.email,
          verifiedAt: subscriptions.verifiedAt,
          createdAt: subscriptions.createdAt,
        })
        .from(subscriptions)
        .where(and(eq(subscriptions.verified, true), eq(subscriptions.unsubscribed, false)))
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
