import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Driver } from "./database.ts";
import { freePort } from "./server.ts";
import { createTestApp, type TestAppOptions } from "./test-app.ts";

/**
 * The app on a fresh database of `driver`, listening on 127.0.0.1 with PUBLIC_URL there, so a
 * test peer on `localhost` can fetch the actor's keys and the app can reach the peer
 * (FEDIVERSE_ALLOW_PRIVATE_ADDRESSES). Fedify's queue runs, as in a server.
 */
export async function startFediverseSite(driver: Driver, options: TestAppOptions = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp(driver, {
    ...options,
    env: { PUBLIC_URL: url, FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "true", ...options.env },
  });
  const server = serve({ fetch: t.app.fetch, port, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  if ((server.address() as AddressInfo).port !== port) throw new Error("listening elsewhere");
  t.services.fediverse.start();
  return {
    ...t,
    url,
    actorUrl: `${url}/fediverse/actor/poet`,
    inboxUrl: `${url}/fediverse/actor/poet/inbox`,
    sharedInboxUrl: `${url}/fediverse/inbox`,
    async close() {
      await t.services.fediverse.stop();
      server.close();
      await t.close();
    },
  };
}

export type FediverseSite = Awaited<ReturnType<typeof startFediverseSite>>;
