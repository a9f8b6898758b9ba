import * as pages from "./pages.ts";

/** A path's first segment: "/poetry/:slug" has "poetry". */
const firstSegment = (path: string) => path.split("/")[1] ?? "";

/**
 * The first path segments of the site's pages: what the page path's one spelling is checked
 * against (server/http/canonical-path.ts, docs/decisions/056-one-page-one-path.md).
 */
export const PAGE_SEGMENTS: ReadonlySet<string> = new Set(
  Object.values(pages)
    .map(firstSegment)
    .filter((segment) => segment !== ""),
);

/**
 * The first path segments this site answers itself: its pages and its other routes (the API,
 * stored files, cards, feeds, the fediverse actor and WebFinger). An imported poem's old address
 * under one of these is never redirected, so an old site's `/about/` stays this site's About page
 * (docs/decisions/052-the-import-job.md). Unit tests hold this list to the declared routes.
 */
export const SITE_PATH_SEGMENTS: ReadonlySet<string> = new Set([
  ...PAGE_SEGMENTS,
  "api",
  "objects",
  "uploads",
  "og",
  "assets",
  "robots.txt",
  "sitemap.xml",
  "feed.xml",
  "favicon.ico",
  "manifest.webmanifest",
  "chapbooks",
  "fediverse",
  ".well-known",
]);

/**
 * An old address as the redirects keep and look it up: percent-encoded like a request's path,
 * without a trailing slash (`/{slug}/` and `/{slug}` are one address); the home page's `?p={id}`
 * (WordPress) is kept as `/?p={id}`. Undefined for what can never be redirected: this site's own
 * pages, the home page itself, anything that is not a path.
 */
export function redirectKey(oldPath: string): string | undefined {
  let url: URL;
  try {
    url = new URL(oldPath, "http://old.example");
  } catch {
    return undefined;
  }
  if (url.origin !== "http://old.example" || !oldPath.startsWith("/")) return undefined;
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "") {
    const postId = url.searchParams.get("p");
    return postId && /^\d{1,12}$/.test(postId) ? `/?p=${postId}` : undefined;
  }
  const first = decodeURIComponent(path.split("/")[1] ?? "").toLowerCase();
  if (SITE_PATH_SEGMENTS.has(first)) return undefined;
  return path;
}
