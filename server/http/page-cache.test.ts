import http from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../logger.ts";
import { createPageCache, type PageCache } from "./page-cache.ts";

const PAGE = `<!doctype html><html><head><script nonce="abc">window.a = 1;</script>
<script type="module" nonce="abc">import("/assets/entry.js");</script></head><body>Poem</body></html>`;
const POLICY =
  "default-src 'self'; script-src 'nonce-abc' 'strict-dynamic'; media-src 'self' https:";

describe("the page cache", () => {
  let server: http.Server;
  let base: string;
  let cache: PageCache;
  let renders: string[];
  let rendered: () => Response;
  /** While set, renders wait for it: a render still under way. */
  let renderGate: Promise<void> | undefined;

  beforeEach(async () => {
    renders = [];
    renderGate = undefined;
    rendered = () =>
      new Response(PAGE, {
        headers: { "content-type": "text/html", "content-security-policy": POLICY },
      });
    cache = createPageCache({
      render: async (path) => {
        renders.push(path);
        await renderGate;
        return rendered();
      },
      siteTimezone: "UTC",
      logger: createLogger("silent"),
    });
    server = http.createServer((request, response) => {
      if (cache.serve(request, response)) return;
      response.writeHead(200, { "x-rendered-by": "app" });
      response.end("from the app");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterEach(async () => {
    vi.useRealTimers();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The first request is rendered by the app; this waits until the copy is cached. */
  async function warm(path: string) {
    await fetch(`${base}${path}`);
    await vi.waitUntil(() => cache.stats().entries > 0);
  }

  it("serves an anonymous page from memory after the first request, with an ETag and 304s", async () => {
    const first = await fetch(`${base}/poetry/river`);
    expect(first.headers.get("x-rendered-by")).toBe("app");
    await vi.waitUntil(() => cache.stats().entries === 1);
    const second = await fetch(`${base}/poetry/river`);
    expect(await second.text()).toBe(PAGE);
    const etag = second.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(second.headers.get("cache-control")).toBe("no-cache");
    const revalidated = await fetch(`${base}/poetry/river`, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(renders).toEqual(["/poetry/river"]);
  });

  it("trades the render's nonce for the hashes of exactly the page's inline scripts", async () => {
    await warm("/");
    const policy = (await fetch(`${base}/`)).headers.get("content-security-policy") ?? "";
    expect(policy).not.toContain("nonce-");
    expect(policy).toContain("'sha256-");
    expect(policy.match(/'sha256-/g)).toHaveLength(2);
    expect(policy).toContain("'strict-dynamic'");
    // Only the nonce is traded: the rest of the policy (a poem's reading: media-src) is kept.
    expect(policy).toContain("; media-src 'self' https:");
  });

  it("keeps the content API's public reads and the feed, but not interactions", async () => {
    for (const path of ["/api/poems", "/api/poems/river", "/api/books", "/feed.xml"]) {
      await fetch(`${base}${path}`);
    }
    await vi.waitUntil(() => cache.stats().entries === 4);
    expect((await fetch(`${base}/api/poems/river`)).headers.get("x-rendered-by")).toBeNull();
  });

  it("renders a page that cannot be kept (a 404) once per request, not twice", async () => {
    rendered = () => new Response("Not found", { status: 404 });
    await fetch(`${base}/poetry/nothing-here`);
    await vi.waitUntil(() => renders.length === 1);
    for (let request = 0; request < 3; request++) await fetch(`${base}/poetry/nothing-here`);
    expect(renders).toEqual(["/poetry/nothing-here"]);
    // A content change may have made it a page: it is tried again.
    cache.clear();
    await fetch(`${base}/poetry/nothing-here`);
    await vi.waitUntil(() => renders.length === 2);
  });

  it("sends br or gzip bodies that decode to the page", async () => {
    await warm("/");
    const gzipped = await fetch(`${base}/`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(await gzipped.text()).toBe(PAGE);
    const brotli = await fetch(`${base}/`, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(await brotli.text()).toBe(PAGE);
  });

  it("never serves signed-in readers, API calls, files or other methods from it", async () => {
    await warm("/poetry");
    const signedIn = await fetch(`${base}/poetry`, {
      headers: { Cookie: "ev.session_token=abc.def" },
    });
    expect(signedIn.headers.get("x-rendered-by")).toBe("app");
    for (const path of [
      "/api/poems/river/echos",
      "/api/journal",
      "/favicon.ico",
      "/objects/images/x",
      "/admin",
    ]) {
      expect((await fetch(`${base}${path}`)).headers.get("x-rendered-by")).toBe("app");
    }
    const posted = await fetch(`${base}/poetry`, { method: "POST" });
    expect(posted.headers.get("x-rendered-by")).toBe("app");
    expect(renders).toEqual(["/poetry"]);
  });

  it("forgets everything on a content change, including a render that was under way", async () => {
    await warm("/poetry");
    cache.clear();
    expect((await fetch(`${base}/poetry`)).headers.get("x-rendered-by")).toBe("app");

    let release = () => {};
    renderGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rendersBefore = renders.length;
    await fetch(`${base}/books`);
    await vi.waitUntil(() => renders.length > rendersBefore);
    cache.clear();
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cache.stats().entries).toBe(0);
  });

  it("renders a page again on a new day in the site's time zone (today's ember)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T23:59:58Z") });
    await warm("/ember");
    expect((await fetch(`${base}/ember`)).headers.get("x-rendered-by")).toBeNull();
    vi.setSystemTime(new Date("2026-11-23T00:00:05Z"));
    expect((await fetch(`${base}/ember`)).headers.get("x-rendered-by")).toBe("app");
  });
});
