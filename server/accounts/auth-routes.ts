import type { Context } from "hono";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { authHandlerPaths, mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import type { Config } from "../config.ts";
import { unauthorized } from "../core/errors.ts";
import { answer } from "../http/answer.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readFormBody, readJsonBody } from "../http/json-body.ts";
import { routesAt } from "../http/routes.ts";
import type { AccountService } from "./accounts.ts";
import { safeReturnPath } from "./accounts.ts";

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

export function authRoutes({ accounts }: { accounts: AccountService }, config: Config) {
  return (
    routesAt<AppEnv>(mounts.api)
      .route(otherRoutes.login, (c) => {
        const returnTo = returnPathOf(c, config);
        return c.redirect(paths.login({ returnTo }), 302);
      })
      .route(otherRoutes.logout, async (c) => {
        const headers = new Headers({ Location: pages.home, "Cache-Control": "no-store" });
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
      .call(endpoints.currentUser, (_input, c) => {
        const actor = c.get("actor");
        if (!actor) throw unauthorized();
        c.header("Cache-Control", "no-store");
        return { ...actor, authenticated: true as const };
      })
      // A JSON call of the contract, and also the sign-in page's form post, answered with a
      // redirect: it reads its own body.
      .route(endpoints.requestSignInLink, async (c) => {
        const schema = endpoints.requestSignInLink.body;
        const isForm = isFormPost(c);
        const input = isForm
          ? parseInput(schema, await readFormBody(c))
          : await readJsonBody(c, schema);
        await accounts.requestSignInLink(
          input.email,
          clientAddress(c, config.trustProxy),
          input.returnTo ?? "/",
        );
        if (isForm) return c.redirect(paths.login({ sent: 1 }), 303);
        return answer(c, endpoints.requestSignInLink, { message: LINK_SENT_MESSAGE });
      })
      .route(otherRoutes.verifySignInLink, async (c) => {
        const input = isFormPost(c)
          ? parseInput(continueRequest, await readFormBody(c))
          : await readJsonBody(c, continueRequest);
        const response = await accounts.verifySignInLink(input.token, input.returnTo ?? "/");
        return relayRedirect(response, paths.login({ error: "invalid-link" }));
      })
      // The operator's printed link signs in on a plain GET.
      .route(otherRoutes.cliLogin, async (c) => {
        const token = c.req.query("token");
        if (!token) return c.redirect(paths.login({ error: "invalid-link" }), 302);
        return relayRedirect(
          await accounts.verifySignInLink(token, "/"),
          paths.login({ error: "invalid-link" }),
        );
      })
      .route(otherRoutes.startOidcSignIn, async (c) => {
        if (!accounts.oidcProvider) return c.json({ message: "Not found" }, 404);
        const body = isFormPost(c) ? await readFormBody(c) : {};
        const returnTo = safeReturnPath(typeof body.returnTo === "string" ? body.returnTo : "/");
        // The provider's discovery document is fetched here: a provider that is down is an error page.
        const response = await accounts.auth
          .handler(
            new Request(new URL(authHandlerPaths.socialSignIn, config.publicUrl), {
              method: "POST",
              headers: { "Content-Type": "application/json", Origin: config.publicUrl.origin },
              body: JSON.stringify({
                provider: accounts.oidcProvider.id,
                callbackURL: returnTo,
                errorCallbackURL: paths.login({ error: "oidc" }),
              }),
            }),
          )
          .catch(() => undefined);
        const url = response?.ok ? ((await response.json()) as { url?: string }).url : undefined;
        if (!response || !url) return c.redirect(paths.login({ error: "oidc" }), 303);
        const headers = new Headers({ Location: url, "Cache-Control": "no-store" });
        for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
        return new Response(null, { status: 303, headers });
      })
      .route(otherRoutes.oidcCallback, async (c) => {
        try {
          return relayRedirect(
            await accounts.auth.handler(c.req.raw),
            paths.login({ error: "oidc" }),
          );
        } catch {
          return c.redirect(paths.login({ error: "oidc" }), 302);
        }
      }).router
  );
}
