import type { Context, MiddlewareHandler } from "hono";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { CacheHandle } from "../../common/cache-handle.ts";
import type { AppEnv } from "./env.ts";

/**
 * How an answer may be kept: "shared", one copy per audience (anonymous, reader, admin);
 * "anonymous", one copy for anonymous readers only (common/cache-handle.ts).
 */
export type Sharing = NonNullable<CacheHandle["cache"]>;

/**
 * Declares an API read (or a site file) the same for every anonymous reader, so the page cache
 * may keep it: `.get("/poems", sharedRead, handler)`. The cache finds these routes in Hono's own
 * route list (createCachePolicy); for a browser, the answer is still checked each time.
 */
export const sharedRead: MiddlewareHandler = async (c, next) => {
  await next();
  c.header("Cache-Control", "no-cache");
};

/**
 * Declares an API read the same for every anonymous reader but not for a signed-in one (echo
 * counts carry the reader's own echoes): the page cache keeps one copy, for anonymous readers.
 * The handler says how long that copy may be kept with `s-maxage`, when its answer changes
 * without a content change.
 */
export const anonymousRead: MiddlewareHandler = (_c, next) => next();

/** What an answer holding one person's things says: no cache, the browser's neither, keeps it. */
export const PERSONAL = "private, no-store";
const SAYS_PRIVATE = /(?:^|,)\s*private\b/i;
const VARY_COOKIE = /(?:^|,)\s*(?:cookie|\*)\s*(?:,|$)/i;

/** Sets a header on the answer in place; a Response made with immutable headers is copied first. */
function setOnAnswer(c: Context, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(name, value);
  }
}

/**
 * What every answer tells the caches between the site and the reader
 * (docs/decisions/053-what-every-answer-tells-caches.md), so no route has to remember it:
 * an answer to a signed-in request, or one that sets a cookie, is personal, `private, no-store`
 * (a route may say `private` with something else); any other answer whose route said nothing may
 * be kept and must be checked each time, `no-cache`, and a write's or a failure's not at all,
 * `no-store`. The one place before the session is read: registered first in server/app.ts.
 */
export const tellCaches: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const said = c.res.headers.get("Cache-Control");
  if (c.get("actor") || c.res.headers.has("Set-Cookie")) {
    if (!said || !SAYS_PRIVATE.test(said)) setOnAnswer(c, "Cache-Control", PERSONAL);
    return;
  }
  if (said) return;
  const isRead = c.req.method === "GET" || c.req.method === "HEAD";
  setOnAnswer(c, "Cache-Control", isRead && c.res.status < 500 ? "no-cache" : "no-store");
};

/**
 * Where the session cookie is read: every answer from here on may change with it, and says so,
 * so a cache keeps one reader's answer apart from another's.
 */
export function varyWithCookie(c: Context) {
  const vary = c.res.headers.get("Vary");
  if (!vary) setOnAnswer(c, "Vary", "Cookie");
  else if (!VARY_COOKIE.test(vary)) setOnAnswer(c, "Vary", `${vary}, Cookie`);
}

/** Paths whose answer is remembered at once; past this the memory starts over. */
const REMEMBERED_PATHS = 10_000;

/** Hono's route patterns (':slug', ':file{[0-9a-z]+\.png}') as one anchored regular expression. */
function patternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((segment) => {
      const parameter = /^:\w+(?:\{(.+)\})?$/.exec(segment);
      if (parameter) return `(?:${parameter[1] ?? "[^/]+"})`;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}$`);
}

/** React Router's route tree, from the server build's flat route list. */
function routeTree(build: ServerBuild): RouteObject[] {
  const byParent = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node = {
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      handle: route.module.handle,
    } as RouteObject;
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), node]);
  }
  const attach = (nodes: RouteObject[]): RouteObject[] =>
    nodes.map((node) => {
      const children = byParent.get(node.id);
      return children && !node.index ? { ...node, children: attach(children) } : node;
    });
  return attach(byParent.get(undefined) ?? []);
}

/**
 * How the page cache may keep the answer to a GET of `pathWithQuery` (undefined: not at all), asked
 * of the routes themselves: a page whose deepest route's `handle` allows it
 * (app/lib/cache-policy.ts), as a document or as React Router's `.data` for client navigation,
 * or an API read or site file declared with `sharedRead` (or `anonymousRead`). Anything else (admin, sign-in,
 * interactions, files) is not cached, because nothing said it may be.
 */
export function createCachePolicy(options: {
  routes: { method: string; path: string; handler: unknown }[];
  build?: ServerBuild;
}): (pathWithQuery: string) => Sharing | undefined {
  const readsMarked = (marker: MiddlewareHandler) =>
    options.routes
      .filter((route) => route.method === "GET" && route.handler === marker)
      .map((route) => patternToRegExp(route.path));
  const sharedReads = readsMarked(sharedRead);
  const anonymousReads = readsMarked(anonymousRead);
  const pages = options.build ? routeTree(options.build) : [];
  const sharingOfPath = (path: string): Sharing | undefined => {
    // API reads and site files hold no one's state: one copy per audience is the same as one.
    if (sharedReads.some((pattern) => pattern.test(path))) return "shared";
    if (anonymousReads.some((pattern) => pattern.test(path))) return "anonymous";
    // Client navigation asks for /poetry.data for /poetry, and /_.data for / (any path ending in
    // a slash), as React Router's server reads them (getNormalizedPath).
    const pagePath = path.endsWith("/_.data")
      ? path.slice(0, -"_.data".length)
      : path.replace(/\.data$/, "");
    if (/\.[a-z0-9]+$/i.test(pagePath)) return undefined;
    const deepest = matchRoutes(pages, pagePath)?.at(-1)?.route;
    return (deepest?.handle as CacheHandle | undefined)?.cache;
  };
  // Asked on every anonymous request before the page cache answers from memory: a path's answer
  // is remembered, since matching React Router's routes costs more than the rest of a cache hit.
  const answers = new Map<string, Sharing | undefined>();
  return (pathWithQuery) => {
    const queryAt = pathWithQuery.indexOf("?");
    const path = queryAt < 0 ? pathWithQuery : pathWithQuery.slice(0, queryAt);
    if (answers.has(path)) return answers.get(path);
    const sharing = sharingOfPath(path);
    if (answers.size >= REMEMBERED_PATHS) answers.clear();
    answers.set(path, sharing);
    return sharing;
  };
}
