import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { otherRoutes } from "../../common/other-routes.ts";
import { idInText } from "../../common/schemas/input.ts";
import type { Config } from "../config.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readFormBody } from "../http/json-body.ts";
import { routesAt } from "../http/routes.ts";
import type { Services } from "../services/index.ts";

const unsubscribeQuery = z.object({
  s: idInText("Invalid unsubscribe link"),
  sig: z.string().check(z.minLength(1, "Invalid unsubscribe link"), z.maxLength(200)),
});

export function subscriptionRoutes(services: Services, config: Config) {
  const { subscriptions } = services;
  return (
    routesAt<AppEnv>("/api")
      .call(endpoints.subscribe, ({ body }, c) =>
        subscriptions.subscribe(body.email, clientAddress(c, config.trustProxy)),
      )
      .route(otherRoutes.verifySubscription, async (c) => {
        const token = c.req.query("token") ?? "";
        const isVerified =
          token.length > 0 && token.length < 200 && (await subscriptions.verify(token));
        return c.redirect(isVerified ? "/?verified=1" : "/subscribe/invalid", 302);
      })
      // RFC 8058 one-click (List-Unsubscribe-Post) and the confirm page's form both land here; the
      // signed link is the authority, so it needs no session and no same-origin check.
      .route(otherRoutes.unsubscribe, async (c) => {
        const body = /form-urlencoded|multipart/i.test(c.req.header("content-type") ?? "")
          ? await readFormBody(c)
          : {};
        const { s, sig } = parseInput(unsubscribeQuery, {
          s: c.req.query("s") ?? body.s,
          sig: c.req.query("sig") ?? body.sig,
        });
        const isDone = await subscriptions.unsubscribe(s, sig);
        if (body.confirm === "1")
          return c.redirect(isDone ? "/unsubscribe?done=1" : "/unsubscribe?invalid=1", 303);
        return isDone
          ? c.json({ message: "Unsubscribed" })
          : c.json({ message: "Invalid unsubscribe link" }, 400);
      }).router
  );
}
