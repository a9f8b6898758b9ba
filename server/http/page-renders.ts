import { createHash } from "node:crypto";
import type { Audience } from "../../common/session.ts";
import type { Logger } from "../logger.ts";
import { MAX_ENTRIES, type PageCopies, type SharedPage } from "./page-copies.ts";
import { withoutNonce, withVary } from "./page-representations.ts";

/**
 * The renders the page cache (server/http/page-cache.ts) shares: one at a time per page, its
 * answer made fit for every reader of an audience, or marked not to be tried again for a while.
 */

const NOT_CACHEABLE_MS = 60_000;
/** Headers that belong to one response, not to the page. */
const PER_RESPONSE_HEADERS = new Set([
  "date",
  "content-length",
  "content-encoding",
  "x-request-id",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);

export interface PageRenderOptions {
  /** Renders a path as a reader of `audience` would see it, as none of them in particular. */
  render(pathWithQuery: string, audience: Audience): Promise<Response>;
  logger: Logger;
}

/**
 * Renders a page for every reader of an audience, as none of them in particular; undefined when
 * its answer cannot be shared (a 404, one that sets a cookie, or one the route marked no-store:
 * the admin's preview of a draft).
 */
async function renderShared(
  options: Pick<PageRenderOptions, "render">,
  now: () => number,
  notCacheable: Map<string, number>,
  key: string,
  url: string,
  audience: Audience,
): Promise<SharedPage | undefined> {
  const rendered = await options.render(url, audience);
  if (
    rendered.status !== 200 ||
    rendered.headers.has("set-cookie") ||
    rendered.headers.get("cache-control")?.includes("no-store")
  ) {
    // A 404 or a personal answer: do not render it twice per request for a while.
    notCacheable.set(key, now() + NOT_CACHEABLE_MS);
    if (notCacheable.size > MAX_ENTRIES) notCacheable.clear();
    return undefined;
  }
  const headers: Record<string, string> = {};
  rendered.headers.forEach((value, name) => {
    if (!PER_RESPONSE_HEADERS.has(name)) headers[name] = value;
  });
  let identity: Buffer = Buffer.from(await rendered.arrayBuffer());
  const renderedPolicy = headers["content-security-policy"];
  if (renderedPolicy) {
    const shared = withoutNonce(renderedPolicy, identity);
    headers["content-security-policy"] = shared.policy;
    identity = shared.body;
  }
  const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 27);
  const sharedMaxAge = /\bs-maxage=(\d+)/.exec(headers["cache-control"] ?? "")?.[1];
  return {
    headers: {
      ...headers,
      vary: withVary(headers.vary, ["Accept-Encoding", "Cookie"]),
      // A signed-in audience's copy is shared by its readers here, never by a cache between.
      "cache-control": audience === "anonymous" ? "no-cache" : "private, no-cache",
    },
    hash,
    identity,
    lifeMs: sharedMaxAge === undefined ? undefined : Number(sharedMaxAge) * 1000,
  };
}

/** Each page's one render under way, and the pages whose last render could not be shared. */
export function createPageRenders(
  options: PageRenderOptions,
  now: () => number,
  copies: PageCopies,
) {
  /**
   * Renders under way (and the keeping of their copies), one per page: a request for a page that
   * is not in memory yet waits for its render instead of starting another.
   */
  const rendering = new Map<string, Promise<SharedPage | undefined>>();
  /** Paths whose render was not cacheable, and until when not to try again. */
  const notCacheable = new Map<string, number>();

  /** The page's render under way, or a new one, which is kept in memory once compressed. */
  function renderOnce(
    key: string,
    url: string,
    audience: Audience,
  ): Promise<SharedPage | undefined> {
    const pending = rendering.get(key);
    if (pending) return pending;
    const startedIn = copies.generation();
    const page = renderShared(options, now, notCacheable, key, url, audience).catch(
      (error: unknown) => {
        options.logger.warn({ err: error, path: key }, "page could not be rendered for sharing");
        return undefined;
      },
    );
    rendering.set(key, page);
    // Requests that come while the copy is compressed (Brotli 11 takes longer than the render)
    // are answered from this render too, rather than starting another.
    void page
      .then((rendered) => rendered && copies.keep(key, rendered, startedIn))
      .catch((error: unknown) => {
        options.logger.warn({ err: error, path: key }, "page could not be cached");
      })
      .finally(() => {
        if (rendering.get(key) === page) rendering.delete(key);
      });
    return page;
  }

  return {
    renderOnce,
    /** Whether the page's last render could not be shared, a short while ago. */
    isNotCacheable: (key: string) => (notCacheable.get(key) ?? 0) > now(),
    /** Forgets the renders under way (their copies are not kept) and the pages not cacheable. */
    clear() {
      rendering.clear();
      notCacheable.clear();
    },
  };
}
