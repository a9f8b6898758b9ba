import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import type { Audience } from "../../common/session.ts";
import type { PageCacheBindings } from "../../server/app.ts";
import { nextVisibilityChange } from "../../server/db/visibility.ts";
import { createCachePolicy } from "../../server/http/cache-policy.ts";
import { createPageCache } from "../../server/http/page-cache.ts";
import { createLogger } from "../../server/logger.ts";
import type { TestApp } from "./test-app.ts";

type PageCacheOptions = Parameters<typeof createPageCache>[0];

/** The app's render of a page's shared copy for an audience, as server/main.ts asks for it. */
export const renderFor = (t: TestApp) => (pathWithQuery: string, audience: Audience) =>
  Promise.resolve(
    t.app.fetch(new Request(new URL(pathWithQuery, t.config.publicUrl)), {
      renderForAudience: audience,
    } satisfies PageCacheBindings),
  );

/**
 * The test app behind its page cache on a loopback port, wired as server/main.ts wires it;
 * `options` replace a part (a counted render, another instance's audience memory, a clock).
 */
export async function startCachedServer(
  t: TestApp,
  build: ServerBuild,
  options: Partial<PageCacheOptions> = {},
) {
  const cache = createPageCache({
    render: renderFor(t),
    sharingOf: createCachePolicy({ routes: t.app.routes, build }),
    audienceOf: t.services.accounts.audienceOf,
    nextVisibilityChange: () => nextVisibilityChange(t.db, new Date(), t.config.siteTimezone),
    logger: createLogger("silent"),
    ...options,
  });
  const listener = getRequestListener(t.app.fetch);
  const server = http.createServer((request, response) =>
    cache.serve(request, response, () => void listener(request, response)),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    cache,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
