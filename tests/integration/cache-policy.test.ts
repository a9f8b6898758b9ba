import { beforeAll, describe, expect, it } from "vitest";
import { createCachePolicy, type Sharing } from "../../server/http/cache-policy.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { createTestApp } from "../helpers/test-app.ts";

/**
 * The page cache keeps only what a route said may be kept (a page's `handle`, an API read's
 * `sharedRead`), asked of the real app's routes and the real build.
 */
describe("what the routes allow the page cache to keep", () => {
  let sharingOf: (pathWithQuery: string) => Sharing | undefined;

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    const t = await createTestApp("pglite", { pageHandler });
    sharingOf = createCachePolicy({ routes: t.app.routes, build });
    await t.close();
  }, 120_000);

  it.each([
    "/",
    "/_.data",
    "/poetry",
    "/poetry?tag=Belonging",
    "/poetry.data",
    "/poetry/the-kitchen-table",
    "/poetry/the-kitchen-table.data",
    "/themes/belonging",
    "/share/poem/the-kitchen-table?s=1",
    "/ember",
    "/ember/archive",
    "/books",
    "/book/the-shape-of-belonging/preview",
    "/guest-voices",
    "/guest-voices/maya-chen",
    "/contribute",
    "/journal",
    "/api/poems/the-kitchen-table/echos",
    "/api/poems",
    "/api/poems/the-kitchen-table",
    "/api/tags",
    "/api/themes/belonging",
    "/api/books",
    "/api/books/the-shape-of-belonging",
    "/api/embers?page=2",
    "/api/embers/featured",
    "/api/ember/today",
    "/sitemap.xml",
    "/feed.xml",
  ])("keeps %s", (path) => {
    const isPersonalWhenSignedIn = path === "/journal" || path.endsWith("/echos");
    expect(sharingOf(path)).toBe(isPersonalWhenSignedIn ? "anonymous" : "shared");
  });

  it.each([
    "/admin",
    "/admin.data",
    "/admin/digest",
    "/admin/submissions",
    "/login",
    "/login/verify?token=x",
    "/unsubscribe?s=1",
    "/subscribe/invalid",
    "/no-such-page",
    // Every query is its own answer: search declares nothing, so no query fills the cache.
    "/search?q=hearth",
    "/search.data?q=hearth",
    "/api/search?q=hearth",
    "/api/auth/user",
    "/api/poems/the-kitchen-table/journal",
    "/api/poems/the-kitchen-table/whispers/0",
    "/api/journal",
    "/api/admin/poems",
    "/api/health",
    "/api/login",
    "/robots.txt",
    "/favicon.ico",
    "/objects/images/abc",
    "/og/stanza/the-kitchen-table/1.png",
    "/assets/entry.client-abc.js",
  ])("does not keep %s", (path) => {
    expect(sharingOf(path)).toBeUndefined();
  });
});
