import { AsyncLocalStorage } from "node:async_hooks";
import { eq } from "drizzle-orm";
import { type Auth, createAuth, OIDC_PROVIDER_ID } from "../auth/auth.ts";
import { sessions, users } from "../db/schema.ts";
import { type Audience, audienceOf } from "../db/visibility.ts";
import { signInLinkMessage } from "../mail/sign-in-link.ts";
import type { Mailer } from "../mail/transport.ts";
import type { Actor, SessionUser } from "./actor.ts";
import type { ServiceDeps } from "./deps.ts";
import { invalid } from "./errors.ts";
import { RATE_LIMITS, type RateLimiter } from "./rate-limit.ts";

/** A path on this site to return to after sign-in; anything else falls back to the home page. */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  return value.startsWith("/api/") || value.startsWith("/login") ? "/" : value;
}

/** better-auth appends its own error code to this; the API shows our message instead. */
const INVALID_LINK_PATH = "/login";

interface AccountDeps extends ServiceDeps {
  mailer: Mailer;
  rateLimiter: RateLimiter;
  secret: string;
}

/** How a freshly made sign-in link leaves the server: mailed to the reader, or printed by the CLI. */
type LinkDelivery = (url: URL) => Promise<void>;

/**
 * Sign-in, sessions and roles. better-auth does the token and session work; this service owns
 * the site's rules around it: links mailed behind a Continue button, rate limits, no enumeration,
 * roles from ADMIN_EMAILS and the CLI, sessions revoked on role change.
 */
/** How long a session cookie's audience is trusted before the session store is asked again. */
export const AUDIENCE_LOOKUP_MS = 2_000;
/** The session token a Cookie header carries (under https its name has a prefix). */
const sessionTokenOf = (cookieHeader: string) =>
  /(?:^|;\s*)(?:__Secure-)?ev\.session_token=([^;]*)/.exec(cookieHeader)?.[1];

/** Cookies whose audience is remembered at once; past this the memory starts over. */
const AUDIENCES_REMEMBERED = 50_000;

export function createAccountService(deps: AccountDeps) {
  const { db, config, mailer, rateLimiter } = deps;
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
    const url = new URL("/api/auth/magic-link/verify", config.publicUrl);
    url.searchParams.set("token", token);
    url.searchParams.set("callbackURL", safeReturnPath(returnTo));
    url.searchParams.set("errorCallbackURL", INVALID_LINK_PATH);
    return auth.handler(new Request(url));
  }

  /** The acting user of a request, from its session cookie (null when anonymous or expired). */
  async function resolveActor(request: Request): Promise<Actor> {
    if (!request.headers.get("cookie")?.includes("ev.session_token")) return null;
    const result = await auth.api.getSession({ headers: request.headers });
    if (!result) return null;
    const user = result.user as typeof result.user & Partial<SessionUser>;
    return {
      id: user.id,
      email: user.email,
      firstName: user.firstName ?? null,
      lastName: user.lastName ?? null,
      profileImageUrl: user.image ?? null,
      role: user.role === "ADMIN" ? "ADMIN" : "USER",
    };
  }

  /** Session cookies' audiences, each until the moment it must be looked up again. */
  const audiences = new Map<string, { audience: Audience; isSignedIn: boolean; until: number }>();

  return {
    auth,

    /**
     * Which audience a page request belongs to, for the page cache: read from the session store
     * at most once per AUDIENCE_LOOKUP_MS per cookie, so a spike of signed-in readers costs no
     * database reads, and a sign-out or a role change shows in every instance's pages within
     * that time. `isSignedIn` false with a session cookie: one that names no session (forged,
     * expired, signed out), which gets the anonymous page. API calls never use this: they check
     * the session store every time (resolveActor), so sign-out is immediate there.
     */
    async audienceOf(cookieHeader: string): Promise<{ audience: Audience; isSignedIn: boolean }> {
      const token = sessionTokenOf(cookieHeader);
      if (!token) return { audience: "anonymous", isSignedIn: false };
      const known = audiences.get(token);
      if (known && known.until > Date.now()) return known;
      const actor = await resolveActor(
        new Request(config.publicUrl, { headers: { cookie: cookieHeader } }),
      );
      const found = {
        audience: audienceOf(actor),
        isSignedIn: actor !== null,
        until: Date.now() + AUDIENCE_LOOKUP_MS,
      };
      if (audiences.size >= AUDIENCES_REMEMBERED) audiences.clear();
      audiences.set(token, found);
      return found;
    },

    /** A sign-out through this instance shows in its pages at once; others follow in time. */
    forgetAudience(cookieHeader: string) {
      const token = sessionTokenOf(cookieHeader);
      if (token) audiences.delete(token);
    },

    oidcProvider: config.oidc
      ? { id: OIDC_PROVIDER_ID, name: new URL(config.oidc.issuer).hostname }
      : undefined,

    resolveActor,

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
        const page = new URL("/login/verify", config.publicUrl);
        page.searchParams.set("token", link.searchParams.get("token") ?? "");
        page.searchParams.set("returnTo", link.searchParams.get("callbackURL") ?? "/");
        await mailer.send(signInLinkMessage(config.siteName, email, page.toString()));
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
        const url = new URL("/api/auth/cli-login", config.publicUrl);
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
        // Its sessions are gone: this instance's pages show it at once, others within the lookup.
        audiences.clear();
      }
      return true;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
