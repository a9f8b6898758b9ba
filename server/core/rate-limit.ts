import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";
import { ServiceError } from "./errors.ts";

export interface RateLimitRule {
  /** Names the limit in keys and logs, e.g. 'sign-in-link:ip'. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Every rate limit of the site, in one table (README, Abuse). A window is a timer in real time:
 * in memory it runs on the monotonic clock (`performance.now()`), in the database on its own
 * `now()`, never on the services' clock, which tests set to publish poems, not to lift limits.
 */
export const RATE_LIMITS = {
  signInLinkPerIp: { name: "sign-in-link:ip", limit: 10, windowSeconds: 15 * 60 },
  signInLinkPerEmail: { name: "sign-in-link:email", limit: 3, windowSeconds: 15 * 60 },
  echoPerUser: { name: "echo:user", limit: 60, windowSeconds: 60 },
  whisperPerUser: { name: "whisper:user", limit: 10, windowSeconds: 60 },
  subscribePerIp: { name: "subscribe:ip", limit: 10, windowSeconds: 60 * 60 },
  subscribePerEmail: { name: "subscribe:email", limit: 3, windowSeconds: 60 * 60 },
  guestSubmissionPerIp: { name: "guest-submission:ip", limit: 5, windowSeconds: 60 * 60 },
  /** Each check fetches a URL from the server: an admin session must not become a scanner. */
  imageUrlCheckPerUser: { name: "image-url-check:user", limit: 30, windowSeconds: 60 },
  /** A reader's avatar: each upload is stored with its resized copies. */
  avatarUploadPerUser: { name: "avatar-upload:user", limit: 10, windowSeconds: 60 * 60 },
  /**
   * Activities posted to the inboxes, per sending server (the host of the signing key), counted
   * only once their signature verified: a busy server's replies and likes fit well within it; a
   * flood does not, and nobody without the server's key can spend it
   * (docs/decisions/065-inbox-limits-by-who-proved-it.md).
   */
  fediverseInboxPerServer: { name: "fediverse-inbox:server", limit: 600, windowSeconds: 60 },
  /** Inbox posts that were not signed or did not verify, per sending address. */
  fediverseInboxUnverifiedPerIp: {
    name: "fediverse-inbox-unverified:ip",
    limit: 60,
    windowSeconds: 60,
  },
} satisfies Record<string, RateLimitRule>;

export class RateLimitedError extends ServiceError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(429, "Too many requests. Please wait a moment and try again.");
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Windows counted in memory before ended ones are looked for (at most once a second). */
const WINDOWS_IN_MEMORY = 100_000;

/**
 * Counts attempts against the site's limits in fixed windows; `consume` throws RateLimitedError
 * past a limit. Where this instance owns the database (the embedded one), every attempt passes
 * through this process, so the counts are kept in memory: exact, and no round trip. Otherwise
 * (PostgreSQL, any number of instances) they are counted in the database, in one statement, so a
 * limit reached through one instance holds on every other. `scale` multiplies every limit
 * (RATE_LIMIT_SCALE, for load tests); 1 in normal operation.
 */
export function createRateLimiter(
  db: Database,
  options: { scale?: number; ownsDatabase: boolean },
) {
  const scale = options.scale ?? 1;
  return options.ownsDatabase ? countInMemory(scale) : countInDatabase(db, scale);
}

function countInMemory(scale: number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = 0;
  const dropEnded = (now: number) => {
    if (now - lastSweep < 1000) return;
    lastSweep = now;
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
  };
  /** Throws RateLimitedError when the subject has no attempt left, without spending one. */
  const check = async (rule: RateLimitRule, subject: string): Promise<void> => {
    const now = performance.now();
    const window = windows.get(`${rule.name}:${subject}`);
    if (window && window.resetAt > now && window.count >= rule.limit * scale) {
      throw new RateLimitedError(Math.max(1, Math.ceil((window.resetAt - now) / 1000)));
    }
  };
  const consume = async (rule: RateLimitRule, subject: string): Promise<void> => {
    const key = `${rule.name}:${subject}`;
    const now = performance.now();
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      if (windows.size >= WINDOWS_IN_MEMORY) dropEnded(now);
      window = { count: 0, resetAt: now + rule.windowSeconds * 1000 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > rule.limit * scale) {
      throw new RateLimitedError(Math.max(1, Math.ceil((window.resetAt - now) / 1000)));
    }
  };
  return { consume, check };
}

function countInDatabase(db: Database, scale: number) {
  // Prepared once: each connection then only binds and executes it (decision 026).
  const window = sql`make_interval(secs => ${sql.placeholder("windowSeconds")})`;
  const countAttempt = db
    .insert(rateLimits)
    .values({ key: sql.placeholder("key"), count: 1, resetAt: sql`now() + ${window}` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= now() then now() + ${window} else ${rateLimits.resetAt} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      retryAfter: sql<number>`greatest(1, ceil(extract(epoch from ${rateLimits.resetAt} - now())))::int`,
    })
    .prepare("count_attempt");
  const readAttempts = db
    .select({
      count: rateLimits.count,
      retryAfter: sql<number>`greatest(1, ceil(extract(epoch from ${rateLimits.resetAt} - now())))::int`,
    })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, sql.placeholder("key")), gt(rateLimits.resetAt, sql`now()`)))
    .prepare("read_attempts");
  return {
    async consume(rule: RateLimitRule, subject: string): Promise<void> {
      const [row] = await countAttempt.execute({
        key: `${rule.name}:${subject}`,
        windowSeconds: rule.windowSeconds,
      });
      if (row && row.count > rule.limit * scale) throw new RateLimitedError(row.retryAfter);
    },
    /** Throws RateLimitedError when the subject has no attempt left, without spending one. */
    async check(rule: RateLimitRule, subject: string): Promise<void> {
      const [row] = await readAttempts.execute({ key: `${rule.name}:${subject}` });
      if (row && row.count >= rule.limit * scale) throw new RateLimitedError(row.retryAfter);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
