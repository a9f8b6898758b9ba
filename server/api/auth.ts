import { type Context, Hono } from "hono";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { signInLinkRequest } from "../../common/schemas/account.ts";
import type { Config } from "../config.ts";
import { answer } from "../http/answer.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readFormBody, readJsonBody } from "../http/json-body.ts";
import { safeReturnPath } from "../services/accounts.ts";
import { unauthorized } from "../services/errors.ts";
import type { Services } from "../services/index.ts";

const continueRequest = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(512)),
  returnTo: z.optional(z.string().check(z.maxLength(2000))),
});

/** Same answer whether or not the address has an account (no enumeration). */
const LINK_SENT_MESSAGE =
  "If that address can sign in, a sign-in link is on its way. It works once, for 15 minutes.";

function isFormPost(c: Context) {
  return /^application\/x-www-form-urlencoded\b/i.test(c.req.header("content-type") ?? "");
}

/**
 * Forwards better-auth's answer: its cookies, and its redirect as a path on this site, with any
 * error it reports shown as our own sign-in error (`failure`), never its internals.
 */
function relayRedirect(response: Response, failure: string): Response {
  const location = new URL(response.headers.get("location") ?? failure, "http://site.invalid");
  const isFailure = !response.headers.get("location") || location.searchParams.has("error");
  const path = isFailure
    ? failure
    : safeReturnPath(location.pathname + location.search + location.hash);
  const headers = new Headers({ Location: path });
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  headers.set("Cache-Control", "no-store");
  return new Response(null, { status: 302, headers });
}

/** The return path after sign-in: asked for explicitly, else the page the reader came from. */
function returnPathOf(c: Context, config: Config): string {
  const asked = c.req.query("returnTo");
  if (asked) return safeReturnPath(asked);
  const referer = c.req.header("referer");
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return url.origin === config.publicUrl.origin
      ? safeReturnPath(url.pathname + url.search + url.hash)
      : "/";
  } catch {
    return "/";
  }
}

export function authRoutes(services: Services, config: Config) {
  const { accounts } = services;
  return (
    new Hono<AppEnv>()
      // SPEC.md §7: reached by full-page navigation; shows the sign-in page.
      .get("/login", (c) => {
        const returnTo = returnPathOf(c, config);
        return c.redirect(`/login?returnTo=${encodeURIComponent(returnTo)}`, 302);
      })
      .get("/logout", async (c) => {
        const headers = new Headers({ Location: "/", "Cache-Control": "no-store" });
        if (c.get("actor")) {
          const response = await accounts.auth.api.signOut({
            headers: c.req.raw.headers,
            asResponse: true,
          });
          accounts.forgetSession(c.req.header("cookie") ?? "");
          for (const cookie of response.headers.getSetCookie())
            headers.append("Set-Cookie", cookie);
        }
        return new Response(null, { status: 302, headers });
      })
      .get("/auth/user", (c) => {
        const actor = c.get("actor");
        if (!actor) throw unauthorized();
        c.header("Cache-Control", "no-store");
        return answer(c, endpoints.currentUser, { ...actor, authenticated: true });
      })
      .post("/auth/email-link", async (c) => {
        const isForm = isFormPost(c);
        const input = isForm
          ? parseInput(signInLinkRequest, await readFormBody(c))
          : await readJsonBody(c, signInLinkRequest);
        await accounts.requestSignInLink(
          input.email,
          clientAddress(c, config.trustProxy),
          input.returnTo ?? "/",
        );
        if (isForm) return c.redirect("/login?sent=1", 303);
        return answer(c, endpoints.requestSignInLink, { message: LINK_SENT_MESSAGE });
      })
      // The Continue button on /login/verify: the only way an emailed link signs in.
      .post("/auth/email-link/verify", async (c) => {
        const input = isFormPost(c)
          ? parseInput(continueRequest, await readFormBody(c))
          : await readJsonBody(c, continueRequest);
        const response = await accounts.verifySignInLink(input.token, input.returnTo ?? "/");
        return relayRedirect(response, "/login?error=invalid-link");
      })
      // The operator's printed link (CLI login-link) signs in on a plain GET; it is never mailed.
      .get("/auth/cli-login", async (c) => {
        const token = c.req.query("token");
        if (!token) return c.redirect("/login?error=invalid-link", 302);
        return relayRedirect(
          await accounts.verifySignInLink(token, "/"),
          "/login?error=invalid-link",
        );
      })
      .post("/auth/oidc/start", async (c) => {
        if (!accounts.oidcProvider) return c.json({ message: "Not found" }, 404);
        const body = isFormPost(c) ? await readFormBody(c) : {};
        const returnTo = safeReturnPath(typeof body.returnTo === "string" ? body.returnTo : "/");
        // The provider's discovery document is fetched here: a provider that is down is an error page.
        const response = await accounts.auth
          .handler(
            new Request(new URL("/api/auth/sign-in/social", config.publicUrl), {
              method: "POST",
              headers: { "Content-Type": "application/json", Origin: config.publicUrl.origin },
              body: JSON.stringify({
                provider: accounts.oidcProvider.id,
                callbackURL: returnTo,
                errorCallbackURL: "/login?error=oidc",
              }),
            }),
          )
          .catch(() => undefined);
        const url = response?.ok ? ((await response.json()) as { url?: string }).url : undefined;
        if (!response || !url) return c.redirect("/login?error=oidc", 303);
        const headers = new Headers({ Location: url, "Cache-Control": "no-store" });
        for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
        return new Response(null, { status: 303, headers });
      })
      .get("/auth/callback/:providerId", async (c) => {
        try {
          return relayRedirect(await accounts.auth.handler(c.req.raw), "/login?error=oidc");
        } catch {
          return c.redirect("/login?error=oidc", 302);
        }
      })
  );
}
