import { AsyncLocalStorage } from "node:async_hooks";
import { and, eq, gt, sql } from "drizzle-orm";
import { authHandlerPaths, mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import * as pages from "../../common/pages.ts";
import { type Audience, audienceOf } from "../../common/session.ts";
import type { Actor, SessionUser } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { invalid } from "../core/errors.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import { sessions, users } from "../db/schema.ts";
import { signInLinkMessage } from "../mail/sign-in-link.ts";
import type { Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { type Auth, createAuth, OIDC_PROVIDER_ID } from "./auth.ts";
import { sessionCookieIn } from "./session-cookie.ts";

/** A path on this site to return to after sign-in; anything else falls back to the home page. */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  return value.startsWith(`${mounts.api}/`) || value.startsWith(pages.login) ? pages.home : value;
}

/** better-auth appends its own error code to this; the API shows our message instead. */
const INVALID_LINK_PATH = pages.login;

interface AccountDeps extends ServiceDeps {
  mailer: Mailer;
  mailSite: MailSiteSource;
  rateLimiter: RateLimiter;
  secret: string;
}

/** How a freshly made sign-in link leaves the server: mailed to the reader, or printed by the CLI. */
type LinkDelivery = (url: URL) => Promise<void>;

/**
 * How long a page trusts what it knows of a session cookie before the session store is asked
 * again (on the embedded database, this instance's memory is that store's exact image).
 */
export const AUDIENCE_LOOKUP_MS = 2_000;
/**
 * How long a session read through better-auth is remembered before it is read through it again:
 * which also extends a session in use (its updateAge) and picks up a changed name or picture.
 */
const SESSION_MEMORY_MS = 60_000;
/** Session cookies remembered at once; past this the memory starts over. */
const SESSIONS_REMEMBERED = 50_000;

/** What this instance knows of one session cookie. */
interface KnownSession {
  /** Who it signs in; null when it names no session (forged, expired, signed out). */
  actor: SessionUser | null;
  /** The session row's token, by which a shared database is asked whether it still lives. */
  token: string;
  expiresAt: number;
  /** When better-auth read it. */
  readAt: number;
  /** When the session store last said it lives: that read, or a confirmation since. */
  confirmedAt: number;
}

/**
 * Sign-in, sessions and roles. better-auth does the token and session work; this service owns
 * the site's rules around it: links mailed behind a Continue button, rate limits, no enumeration,
 * roles from ADMIN_EMAILS and the CLI, sessions revoked on role change.
 */
export function createAccountService(deps: AccountDeps) {
  const { db, config, mailer, rateLimiter, ownsDatabase } = deps;
  const delivery = new AsyncLocalStorage<LinkDelivery>();
  const auth: Auth = createAuth({
    db,
    config,
    logger: deps.logger,
    secret: deps.secret,
    deliverSignInLink: async (_email, url) => {
      const deliver = delivery.getStore();
      if (!deliver)
        throw new Error("a sign-in link was made outside requestSignInLink/createLoginLink");
      await deliver(new URL(url));
    },
  });

  /** Has better-auth make a link for `email` and hands it to `deliver` (never stored in plain). */
  async function makeSignInLink(email: string, returnTo: string, deliver: LinkDelivery) {
    await delivery.run(deliver, () =>
      auth.api.signInMagicLink({
        body: { email, callbackURL: returnTo, errorCallbackURL: INVALID_LINK_PATH },
        headers: new Headers(),
      }),
    );
  }

  /** Exchanges a link token for a session: better-auth's answer (a redirect with the cookie). */
  function verifyToken(token: string, returnTo: string): Promise<Response> {
    const url = new URL(authHandlerPaths.verifyMagicLink, config.publicUrl);
    url.searchParams.set("token", token);
    url.searchParams.set("callbackURL", safeReturnPath(returnTo));
    url.searchParams.set("errorCallbackURL", INVALID_LINK_PATH);
    return auth.handler(new Request(url));
  }

  const knownSessions = new Map<string, KnownSession>();
  /**
   * Prepared once: each connection then only binds and executes it (decision 026). It reads the
   * reader's name, picture and block with the session, so what another instance changed of them
   * holds here at the next call, in the same one statement.
   */
  const sessionIsLive = db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
      blockedAt: users.blockedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.token, sql.placeholder("token")),
        gt(sessions.expiresAt, sql.placeholder("now")),
      ),
    )
    .prepare("session_is_live");

  /**
   * Counts the sessions ended and the readers changed through this instance (sign-out, role
   * change, name, block): a read begun before one may have seen the old state, and is then
   * answered but not remembered.
   */
  let sessionsEnded = 0;

  /** Reads a session cookie through better-auth (signature, expiry, the user) and remembers it. */
  async function readSession(cookieValue: string, cookieHeader: string): Promise<KnownSession> {
    const endedBefore = sessionsEnded;
    const result = await auth.api.getSession({ headers: new Headers({ cookie: cookieHeader }) });
    const now = Date.now();
    const user = result?.user as
      | (NonNullable<typeof result>["user"] & Partial<SessionUser>)
      | undefined;
    const known: KnownSession = {
      actor: user
        ? {
            id: user.id,
            email: user.email,
            firstName: user.firstName ?? null,
            lastName: user.lastName ?? null,
            profileImageUrl: user.image ?? null,
            role: user.role === "ADMIN" ? "ADMIN" : "USER",
            isBlocked: Boolean((user as { blockedAt?: unknown }).blockedAt),
          }
        : null,
      token: result?.session.token ?? "",
      expiresAt: result ? new Date(result.session.expiresAt).getTime() : Number.POSITIVE_INFINITY,
      readAt: now,
      confirmedAt: now,
    };
    if (sessionsEnded !== endedBefore) return known;
    if (knownSessions.size >= SESSIONS_REMEMBERED) knownSessions.clear();
    knownSessions.set(cookieValue, known);
    return known;
  }

  /**
   * Who a session cookie signs in, as the session store says it at most `confirmedWithinMs` ago.
   * On the embedded database every sign-out, role change and expiry passes through this
   * instance, so what it remembers is exact and costs no read. On a shared database another
   * instance may have ended the session: one indexed read confirms it still lives.
   */
  async function sessionActor(cookieHeader: string, confirmedWithinMs: number): Promise<Actor> {
    const cookieValue = sessionCookieIn(cookieHeader)?.value;
    if (!cookieValue) return null;
    const now = Date.now();
    const known = knownSessions.get(cookieValue);
    if (!known || now - known.readAt >= SESSION_MEMORY_MS || now >= known.expiresAt) {
      return (await readSession(cookieValue, cookieHeader)).actor;
    }
    if (!known.actor || ownsDatabase || now - known.confirmedAt < confirmedWithinMs) {
      return known.actor;
    }
    const [live] = await sessionIsLive.execute({ token: known.token, now: new Date(now) });
    if (!live) {
      knownSessions.set(cookieValue, { ...known, actor: null });
      return null;
    }
    known.confirmedAt = now;
    known.actor = {
      ...known.actor,
      firstName: live.firstName,
      lastName: live.lastName,
      profileImageUrl: live.profileImageUrl,
      isBlocked: live.blockedAt !== null,
    };
    return known.actor;
  }

  return {
    auth,

    /**
     * The acting user of an API call or a page render, from its session cookie (null when
     * anonymous, forged, expired or signed out). Sign-out and a role change hold for the next
     * call on every instance: the store is asked each time wherever it is shared.
     */
    resolveActor: (request: Request): Promise<Actor> =>
      sessionActor(request.headers.get("cookie") ?? "", 0),

    /**
     * Which audience a page request belongs to, for the page cache: the session store is asked
     * at most once per AUDIENCE_LOOKUP_MS per cookie, so a spike of signed-in readers costs no
     * database reads, and a sign-out or a role change shows in every instance's pages within
     * that time. `isSignedIn` false with a session cookie: one that names no session, which gets
     * the anonymous page (and the cookie cleared).
     */
    async audienceOf(cookieHeader: string): Promise<{ audience: Audience; isSignedIn: boolean }> {
      const actor = await sessionActor(cookieHeader, AUDIENCE_LOOKUP_MS);
      return { audience: audienceOf(actor), isSignedIn: actor !== null };
    },

    /**
     * A change to a reader made through this instance (their name, their block) holds here at
     * once; other instances read it with the next call's session confirmation.
     */
    rememberReaderChange(userId: string, change: Partial<SessionUser>) {
      sessionsEnded += 1;
      for (const known of knownSessions.values()) {
        if (known.actor?.id === userId) known.actor = { ...known.actor, ...change };
      }
    },

    /** Every session of a reader ended (sign-out everywhere, a deleted account) holds here at once. */
    forgetReaderSessions(userId: string) {
      sessionsEnded += 1;
      for (const [cookieValue, known] of knownSessions) {
        if (known.actor?.id === userId) knownSessions.delete(cookieValue);
      }
    },

    /** A sign-out through this instance holds here at once. */
    forgetSession(cookieHeader: string) {
      sessionsEnded += 1;
      const cookieValue = sessionCookieIn(cookieHeader)?.value;
      if (cookieValue) knownSessions.delete(cookieValue);
    },

    oidcProvider: config.oidc
      ? { id: OIDC_PROVIDER_ID, name: new URL(config.oidc.issuer).hostname }
      : undefined,

    /**
     * Mails a sign-in link. Answers the same whether or not the address has an account; limited
     * per client address and per email address.
     */
    async requestSignInLink(email: string, clientAddress: string, returnTo: string) {
      await rateLimiter.consume(RATE_LIMITS.signInLinkPerIp, clientAddress);
      await rateLimiter.consume(RATE_LIMITS.signInLinkPerEmail, email);
      await makeSignInLink(email, safeReturnPath(returnTo), async (link) => {
        // The mailed link opens a page with a Continue button; only its POST signs in, so mail
        // scanners that fetch links neither sign in nor burn the token.
        const page = new URL(pages.loginVerify, config.publicUrl);
        page.searchParams.set("token", link.searchParams.get("token") ?? "");
        page.searchParams.set("returnTo", link.searchParams.get("callbackURL") ?? "/");
        await mailer.send(signInLinkMessage(await deps.mailSite(), email, page.toString()));
      });
    },

    /** The Continue button's POST and the CLI link's GET both end here. */
    verifySignInLink: verifyToken,

    /**
     * The operator's login link (`npm run cli -- login-link`): creates the account if new,
     * optionally grants ADMIN, and returns a URL that signs in on a plain GET, once, for 15 minutes.
     */
    async createLoginLink(email: string, options: { admin: boolean }): Promise<string> {
      const normalized = email.trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized))
        throw invalid("Please enter a valid email address");
      await db.insert(users).values({ email: normalized }).onConflictDoNothing();
      if (options.admin) await this.setRole(normalized, "ADMIN");
      let printed = "";
      await makeSignInLink(normalized, "/", async (link) => {
        const url = new URL(otherRoutes.cliLogin.path, config.publicUrl);
        url.searchParams.set("token", link.searchParams.get("token") ?? "");
        printed = url.toString();
      });
      return printed;
    },

    /** Changes a role and ends the user's sessions, so the change holds on every device at once. */
    async setRole(email: string, role: "USER" | "ADMIN"): Promise<boolean> {
      const [user] = await db
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.email, email.trim().toLowerCase()));
      if (!user) return false;
      if (user.role !== role) {
        await db.transaction(async (tx) => {
          await tx.update(users).set({ role }).where(eq(users.id, user.id));
          await tx.delete(sessions).where(eq(sessions.userId, user.id));
        });
        // Its sessions are gone: this instance knows at once, others at the next confirmation.
        this.forgetReaderSessions(user.id);
      }
      return true;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
