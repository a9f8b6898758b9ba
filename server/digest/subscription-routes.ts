import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import * as pages from "../../common/pages.ts";
import { withQuery } from "../../common/path-builder.ts";
import { unsubscribeLink } from "../../common/schemas/subscription.ts";
import type { Config } from "../config.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readFormBody } from "../http/json-body.ts";
import { routesAt } from "../http/routes.ts";
import type { SubscriptionService } from "./subscriptions.ts";

export function subscriptionRoutes(
  { subscriptions }: { subscriptions: SubscriptionService },
  config: Config,
) {
  return (
    routesAt<AppEnv>(mounts.api)
      .call(endpoints.subscribe, ({ body }, c) =>
        subscriptions.subscribe(body.email, clientAddress(c, config.trustProxy)),
      )
      .route(otherRoutes.verifySubscription, async (c) => {
        const token = c.req.query("token") ?? "";
        const isVerified =
          token.length > 0 && token.length < 200 && (await subscriptions.verify(token));
        // A page that says so, not only a toast that is gone in seconds.
        return c.redirect(
          isVerified
            ? withQuery(pages.subscribeConfirmed, { verified: 1 })
            : pages.subscribeInvalid,
          302,
        );
      })
      // A mail client that cannot POST opens the List-Unsubscribe address in a browser: the page
      // there shows whose subscription it ends, and its one button POSTs back here.
      .route(otherRoutes.unsubscribeInBrowser, (c) =>
        c.redirect(`${pages.unsubscribe}${new URL(c.req.url).search}`, 303),
      )
      // RFC 8058 one-click (List-Unsubscribe-Post) and the confirm page's form both land here; the
      // signed link is the authority, so it needs no session and no same-origin check.
      .route(otherRoutes.unsubscribe, async (c) => {
        const body = /form-urlencoded|multipart/i.test(c.req.header("content-type") ?? "")
          ? await readFormBody(c)
          : {};
        const { s, sig } = parseInput(unsubscribeLink, {
          s: c.req.query("s") ?? body.s,
          sig: c.req.query("sig") ?? body.sig,
        });
        const isDone = await subscriptions.unsubscribe(s, sig);
        if (body.confirm === "1")
          return c.redirect(
            withQuery(pages.unsubscribe, isDone ? { done: 1 } : { invalid: 1 }),
            303,
          );
        return isDone
          ? c.json({ message: "Unsubscribed" })
          : c.json({ message: "Invalid unsubscribe link" }, 400);
      }).router
  );
}
