import type { IncomingMessage, ServerResponse } from "node:http";
import { isbot } from "isbot";
import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import { matcherOf } from "../../common/path-builder.ts";
import type { Config } from "../config.ts";
import type { InsightsService } from "../insights/insights.ts";
import { previewPlatformOf } from "../insights/sources.ts";
import { isCanonicalPath } from "./canonical-path.ts";

/**
 * Where every request reaches the server, before the page cache answers it from memory or hands
 * it to the app (server/main.ts): the one place that sees a page whether it was a cache hit or a
 * render. What counts as a page a person asked for is docs/decisions/049-counting-without-
 * tracking.md; the view is counted once the answer is known to be a 200, and nothing about the
 * request is kept but its path, its referrer's host and the day's visitor hash.
 */

/** Paths that are never pages: the API, files, images, uploads, cards, the admin's own pages. */
const NOT_PAGES = /^\/(api|objects|uploads|og|assets|admin|__)(\/|$)/;
/** A file name's extension (a `.data` request, robots.txt, feed.xml, an icon). */
const FILE_NAME = /\.[A-Za-z0-9]+$/;
const stanzaCardOf = matcherOf(otherRoutes.stanzaCard.path);
/** A card's file names its stanza's index first: "2.png", "2-abc123.png". */
const CARD_STANZA = /^(\d{1,4})\D/;

/** User agents already judged: readers' browsers repeat, and isbot's test takes microseconds. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 2_000;

function isRobot(userAgent: string): boolean {
  let robot = judged.get(userAgent);
  if (robot === undefined) {
    robot = isbot(userAgent);
    if (judged.size >= JUDGED_MAX) judged.clear();
    judged.set(userAgent, robot);
  }
  return robot;
}

/**
 * Whether the reader has asked not to be counted (Sec-GPC, DNT), or the request is no person's
 * (a prefetch, a bot). `header` reads a request header by its lower-case name.
 */
export function isUncounted(header: (name: string) => string | undefined): boolean {
  if (header("sec-gpc") === "1" || header("dnt") === "1") return true;
  const purpose = header("sec-purpose") ?? header("purpose");
  if (purpose !== undefined && /prefetch|prerender/i.test(purpose)) return true;
  return isRobot(header("user-agent") ?? "");
}

/** The client's address, as the rate limits read it (server/http/client-address.ts). */
export function addressOf(request: IncomingMessage, trustProxy: number): string {
  if (trustProxy > 0) {
    const forwarded = request.headers["x-forwarded-for"];
    // One proxy, one hop: the common case needs no list.
    if (trustProxy === 1 && typeof forwarded === "string" && !forwarded.includes(",")) {
      const address = forwarded.trim();
      if (address) return address;
    }
    const hops = (typeof forwarded === "string" ? forwarded : "")
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    const address = hops[hops.length - trustProxy];
    if (address) return address;
  }
  return request.socket.remoteAddress ?? "unknown";
}

/** Looks at one request and, when it is a page view or a link preview, counts it once answered. */
export function createPageViewCounter(insights: InsightsService, config: Config) {
  /**
   * The page's answer is known: a 200 is a view. One function for every response (`this` is the
   * response), so a counted request allocates no listener of its own.
   */
  function countWhenAnswered(this: ServerResponse) {
    if (this.statusCode !== 200) return;
    const request = this.req;
    const url = request.url ?? "/";
    const queryAt = url.indexOf("?");
    insights.recordPageView({
      path: queryAt < 0 ? url : url.slice(0, queryAt),
      query: queryAt < 0 ? "" : url.slice(queryAt + 1),
      address: addressOf(request, config.trustProxy),
      userAgent: request.headers["user-agent"] ?? "",
      referrer: request.headers.referer,
    });
  }
  const header = (headers: IncomingMessage["headers"]) => (name: string) => {
    const value = headers[name];
    return typeof value === "string" ? value : undefined;
  };

  return (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method !== "GET") return;
    const url = request.url ?? "/";
    const queryAt = url.indexOf("?");
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const headers = request.headers;
    if (path.startsWith(`${mounts.cards}/`)) {
      const card = stanzaCardOf(path);
      const stanza = card && CARD_STANZA.exec(card.file);
      const platform = stanza && previewPlatformOf(headers["user-agent"]);
      if (!card || !stanza || !platform) return;
      response.once("finish", () => {
        if (response.statusCode !== 200) return;
        insights.recordPreview(decodeURIComponent(card.slug), Number(stanza[1]), platform);
      });
      return;
    }
    if (NOT_PAGES.test(path) || FILE_NAME.test(path) || !isCanonicalPath(path)) return;
    const destination = headers["sec-fetch-dest"];
    if (destination !== undefined && destination !== "document") return;
    if (isUncounted(header(headers))) return;
    response.on("finish", countWhenAnswered);
  };
}
