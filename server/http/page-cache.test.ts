import http from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Audience } from "../db/visibility.ts";
import { createLogger } from "../logger.ts";
import { createPageCache, type PageCache } from "./page-cache.ts";

/** The page as the app renders it, with a nonce of its own each time. */
const renderedPage = (nonce: string) =>
  `<!doctype html><html><head><script nonce="${nonce}">window.a = 1;</script>
<script type="module" nonce="${nonce}">import("/assets/entry.js");</script></head><body>Poem</body></html>`;
/** The page as every reader gets it: without the nonce, which its policy no longer names. */
const PAGE = `<!doctype html><html><head><script>window.a = 1;</script>
<script type="module">import("/assets/entry.js");</script></head><body>Poem</body></html>`;

/** What the routes allow to be kept, for these tests (server/http/cache-policy.ts decides it). */
const sharingOf = (pathWithQuery: string) =>
  /^\/(?:$|poetry|books|ember|api\/poems(?:\/\w+)?$|api\/books$|feed\.xml$)/.test(pathWithQuery)
    ? ("shared" as const)
    : undefined;
/** Session cookies in these tests: "reader" and "admin" name sessions, anything else none. */
const audienceOf = async (cookie: string): Promise<{ audience: Audience; isSignedIn: boolean }> => {
  const token = /ev\.session_token=(\w+)/.exec(cookie)?.[1];
  if (token === "reader" || token === "admin") return { audience: token, isSignedIn: true };
  return { audience: "anonymous" as const, isSignedIn: false };
};
/** Visibility next changes at midnight UTC, for these tests: a new ember day. */
const nextMidnight = async () => {
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight;
};

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
    rendered = () => {
      const nonce = `nonce${renders.length}`;
      return new Response(renderedPage(nonce), {
        headers: {
          "content-type": "text/html",
          "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}' 'strict-dynamic'; media-src 'self' https:`,
        },
      });
    };
    cache = createPageCache({
      render: async (path, audience) => {
        renders.push(audience === "anonymous" ? path : `${audience} ${path}`);
        await renderGate;
        return rendered();
      },
      sharingOf,
      audienceOf,
      nextVisibilityChange: nextMidnight,
      logger: createLogger("silent"),
    });
    server = http.createServer((request, response) =>
      cache.serve(request, response, () => {
        response.writeHead(200, { "x-rendered-by": "app" });
        response.end("from the app");
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterEach(async () => {
    vi.useRealTimers();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A client that takes no compressed body: the page's identity copy. */
  const plain = { headers: { "Accept-Encoding": "identity" } };

  /** The first request is answered from the render that fills the cache; this waits until kept. */
  async function warm(path: string) {
    await fetch(`${base}${path}`);
    await vi.waitUntil(() => cache.stats().entries > 0);
  }

  it("answers the first request from the render that fills the cache, with its ETag", async () => {
    const first = await fetch(`${base}/poetry/river`, plain);
    expect(first.headers.get("x-rendered-by")).toBeNull();
    expect(await first.text()).toBe(PAGE);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(first.headers.get("content-security-policy")).not.toContain("nonce-");
    await vi.waitUntil(() => cache.stats().entries === 1);
    const second = await fetch(`${base}/poetry/river`, plain);
    expect(await second.text()).toBe(PAGE);
    expect(second.headers.get("etag")).toBe(etag);
    const revalidated = await fetch(`${base}/poetry/river`, {
      headers: { ...plain.headers, "If-None-Match": etag },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(renders).toEqual(["/poetry/river"]);
  });

  it("answers If-None-Match with 304 from a fresh render too, its nonce aside", async () => {
    const etag = (await fetch(`${base}/poetry/river`, plain)).headers.get("etag") ?? "";
    await vi.waitUntil(() => cache.stats().entries === 1);
    cache.clear();
    const revalidated = await fetch(`${base}/poetry/river`, {
      headers: { ...plain.headers, "If-None-Match": `W/"other", ${etag}` },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(renders).toEqual(["/poetry/river", "/poetry/river"]);
  });

  it("gives each coding its own validator, and a 304 to the copy a client holds and still accepts", async () => {
    const fresh = await fetch(`${base}/poetry/river`, { headers: { "Accept-Encoding": "gzip" } });
    const hash = /^W\/"([\w-]{27})-gzip"$/.exec(fresh.headers.get("etag") ?? "")?.[1];
    // Gzipped for that one response: not the bytes the cache keeps, so its validator is weak.
    expect(hash).toBeDefined();
    await vi.waitUntil(() => cache.stats().entries === 1);
    const etagFor = async (acceptEncoding: string) =>
      (
        await fetch(`${base}/poetry/river`, { headers: { "Accept-Encoding": acceptEncoding } })
      ).headers.get("etag");
    expect(await etagFor("identity")).toBe(`"${hash}"`);
    expect(await etagFor("gzip")).toBe(`"${hash}-gzip"`);
    expect(await etagFor("gzip, br")).toBe(`"${hash}-br"`);

    const revalidate = (ifNoneMatch: string, acceptEncoding: string) =>
      fetch(`${base}/poetry/river`, {
        headers: { "If-None-Match": ifNoneMatch, "Accept-Encoding": acceptEncoding },
      });
    // The gzip copy a cache holds is still good for a client that would now get br.
    for (const [held, acceptEncoding] of [
      [`W/"${hash}-gzip"`, "gzip, br"],
      [`"${hash}-gzip"`, "gzip, br"],
      [`"${hash}-br"`, "br"],
      [`W/"${hash}-br"`, "gzip, br"],
      [`"${hash}"`, "br"],
      [`"other", "${hash}-gzip"`, "gzip"],
    ] as const) {
      const answer = await revalidate(held, acceptEncoding);
      expect(answer.status, `${held} with ${acceptEncoding}`).toBe(304);
      expect(answer.headers.get("etag")).toBe(held.replace(/^"other", /, ""));
      expect(answer.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    }
    const any = await revalidate("*", "gzip, br");
    expect(any.status).toBe(304);
    expect(any.headers.get("etag")).toBe(`"${hash}-br"`);
    // A copy in a coding the client no longer accepts is not the one it gets: the full answer.
    const other = await revalidate(`"${hash}-br"`, "gzip");
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).toBe(`"${hash}-gzip"`);
    expect(await other.text()).toBe(PAGE);
  });

  it.each(["garbage", "W/", ",,,", '"unterminated', 'W/W/"x"'])(
    "sends the whole page for a garbled If-None-Match (%s)",
    async (ifNoneMatch) => {
      await warm("/poetry/river");
      const answer = await fetch(`${base}/poetry/river`, {
        headers: { ...plain.headers, "If-None-Match": ifNoneMatch },
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(PAGE);
    },
  );

  it("marks a signed-in audience's copy private, from a render, from memory and in a 304", async () => {
    const asReader = { headers: { ...plain.headers, Cookie: "ev.session_token=reader" } };
    const fresh = await fetch(`${base}/poetry`, asReader);
    expect(fresh.headers.get("cache-control")).toBe("private, no-cache");
    await vi.waitUntil(() => cache.stats().entries === 1);
    const kept = await fetch(`${base}/poetry`, asReader);
    expect(kept.headers.get("cache-control")).toBe("private, no-cache");
    const revalidated = await fetch(`${base}/poetry`, {
      headers: { ...asReader.headers, "If-None-Match": kept.headers.get("etag") ?? "" },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("cache-control")).toBe("private, no-cache");
    expect((await fetch(`${base}/poetry`, plain)).headers.get("cache-control")).toBe("no-cache");
  });

  it("renders a page once for the requests that come while it is rendered", async () => {
    let release = () => {};
    renderGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answers = Promise.all([1, 2, 3].map(() => fetch(`${base}/poetry/river`, plain)));
    await vi.waitUntil(() => renders.length === 1);
    release();
    const etags = (await answers).map((answer) => answer.headers.get("etag"));
    expect(new Set(etags).size).toBe(1);
    expect(etags[0]).toMatch(/^"[\w-]{27}"$/);
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

  it("keeps the API reads and site files the routes allow, like pages", async () => {
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

  it("sends br or gzip bodies that decode to the page, honouring q=0", async () => {
    const fresh = await fetch(`${base}/`, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(fresh.headers.get("content-encoding")).toBe("gzip");
    expect(await fresh.text()).toBe(PAGE);
    await vi.waitUntil(() => cache.stats().entries === 1);
    const gzipped = await fetch(`${base}/`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(await gzipped.text()).toBe(PAGE);
    const brotli = await fetch(`${base}/`, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(await brotli.text()).toBe(PAGE);
    const refused = await fetch(`${base}/`, { headers: { "Accept-Encoding": "br;q=0, gzip;q=0" } });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect(refused.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    cache.clear();
    const freshRefused = await fetch(`${base}/`, { headers: { "Accept-Encoding": "gzip;q=0" } });
    expect(freshRefused.headers.get("content-encoding")).toBeNull();
    expect(await freshRefused.text()).toBe(PAGE);
  });

  it("keeps one copy per audience, and serves a signed-in reader's page from memory", async () => {
    const asReader = { headers: { Cookie: "theme=dark; ev.session_token=reader" } };
    await fetch(`${base}/poetry`, asReader);
    await vi.waitUntil(() => cache.stats().entries === 1);
    const again = await fetch(`${base}/poetry`, asReader);
    expect(again.headers.get("x-rendered-by")).toBeNull();
    expect(await again.text()).toBe(PAGE);
    await fetch(`${base}/poetry`, { headers: { Cookie: "ev.session_token=admin" } });
    await fetch(`${base}/poetry`);
    expect(renders).toEqual(["reader /poetry", "admin /poetry", "/poetry"]);
    expect(cache.stats().hits).toBe(1);
  });

  it("gives a cookie that names no session the anonymous page, and clears the cookie", async () => {
    await warm("/poetry");
    const forged = await fetch(`${base}/poetry`, {
      headers: { Cookie: "ev.session_token=forged.value" },
    });
    expect(forged.status).toBe(200);
    expect(await forged.text()).toBe(PAGE);
    expect(forged.headers.get("set-cookie")).toBe(
      "ev.session_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax",
    );
    // A revalidation clears it too.
    const revalidated = await fetch(`${base}/poetry`, {
      headers: {
        Cookie: "ev.session_token=forged.value",
        "If-None-Match": forged.headers.get("etag") ?? "",
      },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("set-cookie")).toBe(
      "ev.session_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax",
    );
    expect(renders).toEqual(["/poetry"]);
  });

  it("never serves other methods, or what the routes do not allow, from it", async () => {
    await warm("/poetry");
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

  it("forgets everything on a content change; a render under way answers its requests, with its ETag", async () => {
    await warm("/poetry");
    cache.clear();
    await fetch(`${base}/poetry`);
    expect(renders).toEqual(["/poetry", "/poetry"]);

    let release = () => {};
    renderGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = fetch(`${base}/books`, plain);
    await vi.waitUntil(() => renders.includes("/books"));
    cache.clear();
    // A request after the change does not wait for the render that began before it.
    const afterChange = fetch(`${base}/books`, plain);
    await vi.waitUntil(() => renders.filter((path) => path === "/books").length === 2);
    cache.clear();
    release();
    const beforeChange = await answer;
    expect(beforeChange.status).toBe(200);
    expect(beforeChange.headers.get("etag")).toMatch(/^"[\w-]{27}"$/);
    expect((await afterChange).headers.get("etag")).toBe(beforeChange.headers.get("etag"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cache.stats().entries).toBe(0);
  });

  it("renders a page again once visibility next changes by itself (a new ember day)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T23:59:58Z") });
    await warm("/ember");
    expect((await fetch(`${base}/ember`)).headers.get("x-rendered-by")).toBeNull();
    vi.setSystemTime(new Date("2026-11-23T00:00:05Z"));
    await fetch(`${base}/ember`);
    expect(renders).toEqual(["/ember", "/ember"]);
  });

  it("keeps a copy no longer than its route's s-maxage (echo counts), and tells browsers no-cache", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T12:00:00Z") });
    rendered = () =>
      new Response("[]", {
        headers: {
          "content-type": "application/json",
          "cache-control": "public, max-age=0, s-maxage=1",
        },
      });
    await warm("/api/poems/lake");
    const kept = await fetch(`${base}/api/poems/lake`);
    expect(kept.headers.get("cache-control")).toBe("no-cache");
    vi.setSystemTime(new Date("2026-11-22T12:00:00.900Z"));
    await fetch(`${base}/api/poems/lake`);
    expect(renders).toEqual(["/api/poems/lake"]);
    vi.setSystemTime(new Date("2026-11-22T12:00:01.100Z"));
    await fetch(`${base}/api/poems/lake`);
    expect(renders).toEqual(["/api/poems/lake", "/api/poems/lake"]);
  });
});
