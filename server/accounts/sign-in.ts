import { AsyncLocalStorage } from "node:async_hooks";
import { authHandlerPaths, mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import * as pages from "../../common/pages.ts";
import { invalid } from "../core/errors.ts";
import { RATE_LIMITS } from "../core/rate-limit.ts";
import { users } from "../db/schema.ts";
import { signInLinkMessage } from "../mail/sign-in-link.ts";
import type { AccountDeps } from "./accounts.ts";
import { type Auth, createAuth, OIDC_PROVIDER_ID } from "./auth.ts";
import type { Roles } from "./roles.ts";

/** A path on this site to return to after sign-in; anything else falls back to the home page. */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  return value.startsWith(`${mounts.api}/`) || value.startsWith(pages.login) ? pages.home : value;
}

/** better-auth appends its own error code to this; the API shows our message instead. */
const INVALID_LINK_PATH = pages.login;

/** How a freshly made sign-in link leaves the server: mailed to the reader, or printed by the CLI. */
type LinkDelivery = (url: URL) => Promise<void>;

/**
 * better-auth, which makes the links and the sessions, and the two ends of a link: made for an
 * address and handed to whoever asked, then exchanged for a session.
 */
export function createSignInLinks(deps: Pick<AccountDeps, "db" | "config" | "logger" | "secret">) {
  const { db, config } = deps;
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

  return { auth, makeSignInLink, verifyToken };
}

export type SignInLinks = ReturnType<typeof createSignInLinks>;

/**
 * The ways in: a link mailed behind a Continue button, with rate limits and no enumeration; the
 * operator's printed link; OpenID Connect when it is set up.
 */
export function signIn(
  deps: Pick<AccountDeps, "db" | "config" | "mailer" | "mailSite" | "rateLimiter">,
  { makeSignInLink, verifyToken }: SignInLinks,
  roles: Roles,
) {
  const { db, config, mailer, rateLimiter } = deps;
  return {
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
      if (options.admin) await roles.setRole(normalized, "ADMIN");
      let printed = "";
      await makeSignInLink(normalized, "/", async (link) => {
        const url = new URL(otherRoutes.cliLogin.path, config.publicUrl);
        url.searchParams.set("token", link.searchParams.get("token") ?? "");
        printed = url.toString();
      });
      return printed;
    },
  };
}
