import { Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { unsubscribeLink } from "../../common/schemas/subscription.ts";
import type { Config } from "../config.ts";
import { answer } from "../http/answer.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readFormBody, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

/** Path of the unsubscribe endpoint: its one-click POST comes from mail providers, not our pages. */
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/api/unsubscribe";

export function subscriptionRoutes(services: Services, config: Config) {
  const { subscriptions } = services;
  return (
    new Hono<AppEnv>()
      .post("/subscribe", async (c) => {
        const { email } = await readJsonBody(c, endpoints.subscribe.body);
        return answer(
          c,
          endpoints.subscribe,
          await subscriptions.subscribe(email, clientAddress(c, config.trustProxy)),
        );
      })
      .get("/subscribe/verify", async (c) => {
        const token = c.req.query("token") ?? "";
        const isVerified =
          token.length > 0 && token.length < 200 && (await subscriptions.verify(token));
        return c.redirect(isVerified ? "/?verified=1" : "/subscribe/invalid", 302);
      })
      // A mail client that cannot POST opens the List-Unsubscribe address in a browser: the page
      // there shows whose subscription it ends, and its one button POSTs back here.
      .get("/unsubscribe", (c) => c.redirect(`/unsubscribe${new URL(c.req.url).search}`, 303))
      // RFC 8058 one-click (List-Unsubscribe-Post) and the confirm page's form both land here; the
      // signed link is the authority, so it needs no session and no same-origin check.
      .post("/unsubscribe", async (c) => {
        const body = /form-urlencoded|multipart/i.test(c.req.header("content-type") ?? "")
          ? await readFormBody(c)
          : {};
        const { s, sig } = parseInput(unsubscribeLink, {
          s: c.req.query("s") ?? body.s,
          sig: c.req.query("sig") ?? body.sig,
        });
        const isDone = await subscriptions.unsubscribe(s, sig);
        if (body.confirm === "1")
          return c.redirect(isDone ? "/unsubscribe?done=1" : "/unsubscribe?invalid=1", 303);
        return isDone
          ? c.json({ message: "Unsubscribed" })
          : c.json({ message: "Invalid unsubscribe link" }, 400);
      })
  );
}
