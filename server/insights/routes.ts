import type { MiddlewareHandler } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import type { Config } from "../config.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AdminEnv, AppEnv } from "../http/env.ts";
import { isUncounted } from "../http/page-views.ts";
import { readLimitedBody } from "../http/read-limited-body.ts";
import { routesAt } from "../http/routes.ts";
import { requireSameOrigin } from "../http/same-origin.ts";
import { resolveSessionSecret } from "../secrets.ts";
import type { InsightsService, Reading } from "./insights.ts";

/** A beacon names a poem and at most a few hundred stanzas: anything larger is not ours. */
export const BEACON_MAX_BYTES = 2_048;
/** Stanza indices a beacon may carry; the poem's own length bounds them further. */
const INDEX_MAX = 999;
/** Beacons per address per minute on one instance: a reader sends one per visit. */
export const BEACONS_PER_MINUTE = 60;
const ADDRESSES_REMEMBERED = 50_000;

export const BEACON_MESSAGES = {
  malformed: "The reading report is not valid",
  tooLarge: "The reading report is too large",
  outOfRange: "A stanza in the reading report is not in this poem",
  tooMany: "Too many reading reports. Please wait a moment.",
} as const;

const isIndex = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= INDEX_MAX;

/** The beacon's body, `{poem, reached?: number[], shared?: number}`, or undefined. */
export function readReading(text: string): Reading | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { poem, reached, shared, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return undefined;
  if (typeof poem !== "string" || poem.length === 0 || poem.length > 200) return undefined;
  if (reached !== undefined && !(Array.isArray(reached) && reached.every(isIndex))) {
    return undefined;
  }
  if (shared !== undefined && !isIndex(shared)) return undefined;
  if (reached === undefined && shared === undefined) return undefined;
  return { poem, reached: reached as number[] | undefined, shared };
}

/**
 * Beacons per address in fixed one-minute windows, in this instance's memory only: a flood is
 * refused without a database round trip, and no address is written anywhere (decision 049).
 */
function createBeaconLimit(scale: number) {
  const limit = BEACONS_PER_MINUTE * scale;
  const windows = new Map<string, { count: number; resetAt: number }>();
  return (address: string): number | undefined => {
    const now = performance.now();
    let window = windows.get(address);
    if (!window || window.resetAt <= now) {
      if (windows.size >= ADDRESSES_REMEMBERED) {
        for (const [known, ended] of windows) if (ended.resetAt <= now) windows.delete(known);
        if (windows.size >= ADDRESSES_REMEMBERED) windows.clear();
      }
      window = { count: 0, resetAt: now + 60_000 };
      windows.set(address, window);
    }
    window.count += 1;
    return window.count > limit ? Math.max(1, Math.ceil((window.resetAt - now) / 1000)) : undefined;
  };
}

/**
 * The reading beacon (docs/product/insights.md). Mounted ahead of the pages' security headers and
 * session lookup (server/app.ts): a 204 needs neither, and a reader's leaving should cost little.
 */
export function readingBeaconRoutes(
  { insights }: { insights: InsightsService },
  config: Config,
  /** The API's own body limit (413 past it), ahead of the beacon's smaller one (400). */
  apiBodyLimit: MiddlewareHandler<AppEnv>,
) {
  const limit = createBeaconLimit(config.rateLimitScale);
  return routesAt<AppEnv>("/").route(
    otherRoutes.readingBeacon,
    apiBodyLimit,
    requireSameOrigin(config),
    async (c) => {
      if (!insights.counting || isUncounted((name) => c.req.header(name))) {
        return c.body(null, 204);
      }
      const address = clientAddress(c, config.trustProxy);
      const retryAfter = limit(address);
      if (retryAfter !== undefined) {
        return c.json({ message: BEACON_MESSAGES.tooMany }, 429, {
          "Retry-After": String(retryAfter),
        });
      }
      let text: string;
      const declared = c.req.header("content-length");
      try {
        // A beacon declares its length: read whole at once, no stream of its own. A chunked body
        // is counted as it arrives.
        if (declared !== undefined && Number(declared) > BEACON_MAX_BYTES) throw new Error();
        text =
          declared !== undefined
            ? await c.req.text()
            : new TextDecoder().decode(await readLimitedBody(c.req.raw, BEACON_MAX_BYTES));
      } catch {
        return c.json({ message: BEACON_MESSAGES.tooLarge }, 400);
      }
      const reading = readReading(text);
      if (!reading) return c.json({ message: BEACON_MESSAGES.malformed }, 400);
      const outcome = await insights.recordReading(
        reading,
        address,
        c.req.header("user-agent") ?? "",
      );
      if (outcome === "invalid") return c.json({ message: BEACON_MESSAGES.outOfRange }, 400);
      return c.body(null, 204);
    },
  ).router;
}

/**
 * The digest's click redirect (docs/product/insights.md), on the API router: it always leads on,
 * and counts the click only for a reader who did not ask not to be counted.
 */
export function digestLinkRoutes({ insights }: { insights: InsightsService }, config: Config) {
  const secret = resolveSessionSecret(config);
  return routesAt<AppEnv>(mounts.api).route(otherRoutes.digestLink, async (c) => {
    const uncounted = !insights.counting || isUncounted((name) => c.req.header(name));
    const address = uncounted ? undefined : clientAddress(c, config.trustProxy);
    const target = await insights.followDigestLink(secret, c.req.param("token"), address);
    if (!target) return c.json({ message: "This link is not valid" }, 404);
    c.header("Cache-Control", "no-store");
    return c.redirect(target, 302);
  }).router;
}

/** The admin's insights on the admin router (server/admin-router.ts). */
export function adminInsightRoutes({ insights }: { insights: InsightsService }) {
  return routesAt<AdminEnv>(mounts.admin)
    .call(endpoints.getInsights, ({ query }, c) => insights.summary(c.var.admin, query.days))
    .call(endpoints.getPoemInsights, ({ params, query }, c) =>
      insights.poem(c.var.admin, params.slug, query.days),
    ).router;
}
