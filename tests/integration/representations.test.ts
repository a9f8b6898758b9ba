import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PageCache } from "../../server/http/page-cache.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { startCachedServer } from "../helpers/cached-server.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { HEADERS_OF_A_REPRESENTATION, type RawAnswer, rawRequest } from "../helpers/raw-request.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const CODINGS = ["identity", "gzip", "br"] as const;

/**
 * What an HTTP cache in front of the site is told: each coding of an answer is its own
 * representation with its own validator (docs/decisions/029-a-validator-per-coding.md), a
 * signed-in reader's page is private, and a session cookie naming no session is cleared
 * wherever it is sent.
 */
describe.each(drivers)("representations and cookies through the page cache on %s", (driver) => {
  let t: TestApp;
  let cache: PageCache;
  let base: string;
  let closeServer: (() => Promise<unknown>) | undefined;
  let reader: string;

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    await createPoem(t.db, { slug: "river-at-dusk", title: "River at Dusk" });
    reader = await signIn(t, "reader@example.com");
    ({ cache, base, close: closeServer } = await startCachedServer(t, build));
  }, 120_000);
  afterAll(async () => {
    await closeServer?.();
    await t?.close();
  });

  const get = (path: string, headers: Record<string, string>) =>
    fetch(`${base}${path}`, { headers });

  it.each([
    ["/poetry/river-at-dusk", "anonymous"],
    ["/poetry/river-at-dusk", "reader"],
    ["/api/poems", "anonymous"],
    ["/feed.xml", "anonymous"],
    ["/sitemap.xml", "anonymous"],
  ])(
    "sends %s to %s readers plain, gzip and br under three validators, each revalidated with 304",
    async (path, audience) => {
      const cookie: Record<string, string> = audience === "reader" ? { Cookie: reader } : {};
      const entries = cache.stats().entries;
      await get(path, { ...cookie, "Accept-Encoding": "identity" });
      await vi.waitUntil(() => cache.stats().entries > entries);
      const etags: string[] = [];
      for (const coding of CODINGS) {
        const answer = await get(path, { ...cookie, "Accept-Encoding": coding });
        expect(answer.status).toBe(200);
        expect(answer.headers.get("content-encoding")).toBe(coding === "identity" ? null : coding);
        // A poem's address is also its ActivityStreams object (docs/product/fediverse.md).
        expect(answer.headers.get("vary")).toBe(
          path.startsWith("/poetry/")
            ? "Accept, Accept-Encoding, Cookie"
            : "Accept-Encoding, Cookie",
        );
        const etag = answer.headers.get("etag") ?? "";
        expect(etag).toMatch(/^"[\w-]{27}(?:-gzip|-br)?"$/);
        etags.push(etag);
        const revalidated = await get(path, {
          ...cookie,
          "Accept-Encoding": coding,
          "If-None-Match": etag,
        });
        expect(revalidated.status).toBe(304);
        expect(revalidated.headers.get("etag")).toBe(etag);
      }
      expect(new Set(etags).size).toBe(3);
    },
  );

  it("marks a signed-in reader's page private and an anonymous one not", async () => {
    const path = "/poetry/river-at-dusk";
    const signedIn = await get(path, { Cookie: reader });
    expect(signedIn.headers.get("cache-control")).toBe("private, no-cache");
    expect(signedIn.headers.get("vary")).toBe("Accept, Accept-Encoding, Cookie");
    expect((await get(path, {})).headers.get("cache-control")).toBe("no-cache");
  });

  it("keeps from every cache a signed-in reader's page rendered for them alone", async () => {
    const journal = await t.app.request("/journal", { headers: { Cookie: reader } });
    expect(journal.status).toBe(200);
    expect(journal.headers.get("cache-control")).toBe("private, no-store");
  });

  it.each([
    "ev.session_token=forged.not-a-session",
    "ev.session_token=%E0%A4%A",
    'ev.session_token="quoted;value"',
    "ev.session_token=a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.0.1.2.3.4.5.6.7.8.9",
    "theme=dark; ev.session_token=",
  ])(
    "answers a bad session cookie (%s) as anonymous on any page or API call, and clears it",
    async (cookie) => {
      const clearing = /^ev\.session_token=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/;
      for (const path of ["/poetry", "/api/poems", "/feed.xml"]) {
        const answer = await get(path, { Cookie: cookie });
        expect(answer.status, path).toBe(200);
        expect(answer.headers.get("set-cookie"), path).toMatch(clearing);
      }
      for (const path of [
        "/search?q=river",
        "/login",
        "/journal",
        "/unsubscribe",
        "/no-such-page",
      ]) {
        const answer = await t.app.request(path, { headers: { Cookie: cookie } });
        expect(answer.status, path).toBeLessThan(500);
        expect(answer.headers.get("set-cookie"), path).toMatch(clearing);
      }
      for (const [method, path, status] of [
        ["GET", "/api/search?q=river", 200],
        ["GET", "/api/auth/user", 401],
        ["GET", "/api/journal", 401],
        ["POST", "/api/poems/river-at-dusk/echo", 401],
      ] as const) {
        const answer = await api(t.app, method, path, {
          cookie,
          origin: SITE_ORIGIN,
          body: method === "POST" ? { stanzaIndex: 0 } : undefined,
        });
        expect(answer.status, path).toBe(status);
        expect(answer.headers.get("set-cookie"), path).toMatch(clearing);
      }
    },
  );

  it("leaves a live session's cookie alone", async () => {
    for (const path of ["/api/auth/user", "/journal", "/search?q=river"]) {
      const answer = await t.app.request(path, { headers: { Cookie: reader } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("set-cookie")).toBeNull();
    }
  });

  it("answers a 304 with the validator the client holds, weak or strong", async () => {
    const path = "/poetry/river-at-dusk";
    await get(path, {});
    await vi.waitFor(() => expect(cache.stats().entries).toBeGreaterThan(0), { timeout: 10_000 });
    const strong = (await get(path, { "Accept-Encoding": "gzip" })).headers.get("etag") ?? "";
    expect(strong).toMatch(/^"[\w-]+-gzip"$/);
    for (const held of [strong, `W/${strong}`, `"other", W/${strong}`]) {
      const answer = await get(path, { "Accept-Encoding": "gzip", "If-None-Match": held });
      expect(answer.status, held).toBe(304);
      expect(answer.headers.get("etag"), held).toBe(held.includes("W/") ? `W/${strong}` : strong);
    }
  });

  it("answers a HEAD with what a GET would send, a page being rendered and one rendered afresh", async () => {
    const asked = { "Accept-Encoding": "gzip" };
    cache.clear();
    // Both wait for the one render of the page, and are answered from it.
    const [got, head] = await Promise.all([
      rawRequest(`${base}/poetry/river-at-dusk`, "GET", asked),
      rawRequest(`${base}/poetry/river-at-dusk`, "HEAD", asked),
    ]);
    const pairs: [string, RawAnswer, RawAnswer][] = [["/poetry/river-at-dusk", got, head]];
    for (const path of ["/search?q=river", "/api/search?q=river", "/login"]) {
      for (const coding of ["gzip", "identity"]) {
        const headers = { "Accept-Encoding": coding };
        pairs.push([
          `${path} (${coding})`,
          await rawRequest(`${base}${path}`, "GET", headers),
          await rawRequest(`${base}${path}`, "HEAD", headers),
        ]);
      }
    }
    for (const [label, full, headOnly] of pairs) {
      expect(full.headers["content-length"], label).toBe(String(full.body.length));
      // Two renders of a page differ in their nonce, and so a byte or two once gzipped.
      const isTwoRenders = label.endsWith("(gzip)") && !label.startsWith("/api/");
      for (const name of HEADERS_OF_A_REPRESENTATION) {
        if (isTwoRenders && name === "content-length") {
          expect(headOnly.headers[name], label).toMatch(/^\d+$/);
        } else expect(headOnly.headers[name], `${label}: ${name}`).toBe(full.headers[name]);
      }
    }
  });
});
