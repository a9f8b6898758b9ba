import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { poems } from "../../server/db/schema.ts";
import type { PageCache } from "../../server/http/page-cache.ts";
import { renderFor, startCachedServer } from "../helpers/cached-server.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Decision 016: every anonymous page answer carries its validator, fresh or from memory. */
describe.each(drivers)("page cache validators on %s", (driver) => {
  let t: TestApp;
  let closeServer: (() => Promise<unknown>) | undefined;
  let base: string;
  let cache: PageCache;
  /** While set, the cache's renders wait for it before answering: a render still under way. */
  let renderGate: Promise<void> | undefined;
  let renders = 0;
  const page = "/poetry/river-at-dusk";

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    await createPoem(t.db, { slug: "river-at-dusk", title: "River at Dusk" });
    // Wired as server/main.ts wires it.
    const render = renderFor(t);
    const cached = await startCachedServer(t, build, {
      render: async (pathWithQuery, audience) => {
        renders += 1;
        const response = await render(pathWithQuery, audience);
        await renderGate;
        return response;
      },
    });
    ({ cache, base, close: closeServer } = cached);
    t.services.contentChanges.onChange(() => cache.clear());
  }, 120_000);
  afterAll(async () => {
    await closeServer?.();
    await t?.close();
  });
  beforeEach(() => {
    renderGate = undefined;
    cache.clear();
  });

  const request = (headers: Record<string, string> = {}) =>
    fetch(`${base}${page}`, { headers: { "Accept-Encoding": "gzip, br", ...headers } });

  it("answers the first request with an ETag, and If-None-Match on it with 304, fresh and from memory", async () => {
    const first = await request();
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("River at Dusk");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/"[\w-]{27}-gzip"$/);

    await vi.waitUntil(() => cache.stats().entries === 1);
    const hitsBefore = cache.stats().hits;
    const fromMemory = await request({ "If-None-Match": etag });
    expect(fromMemory.status).toBe(304);
    expect(fromMemory.headers.get("etag")).toBe(etag);
    expect(cache.stats().hits).toBe(hitsBefore + 1);

    // An admin write elsewhere clears every page: this one is rendered again, to the same bytes.
    await t.services.contentChanges.announce();
    expect(cache.stats().entries).toBe(0);
    const rendersBefore = renders;
    const fresh = await request({ "If-None-Match": etag });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("etag")).toBe(etag);
    expect(renders).toBe(rendersBefore + 1);
  });

  it("answers with its ETag a render that a content change overtook, which is not kept", async () => {
    let release = () => {};
    renderGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rendersBefore = renders;
    const answer = request();
    await vi.waitUntil(() => renders > rendersBefore);
    await t.services.contentChanges.announce();
    release();
    const overtaken = await answer;
    expect(overtaken.status).toBe(200);
    const etag = overtaken.headers.get("etag") ?? "";
    expect(etag).toMatch(/^W\/"[\w-]{27}-gzip"$/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cache.stats().entries).toBe(0);
    renderGate = undefined;
    expect((await request({ "If-None-Match": etag })).status).toBe(304);
  });

  it("answers a changed page in full, with a new ETag", async () => {
    const etag = (await request()).headers.get("etag") ?? "";
    await t.db.update(poems).set({ title: "River at Dawn" }).where(eq(poems.slug, "river-at-dusk"));
    await t.services.contentChanges.announce();
    const changed = await request({ "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("River at Dawn");
    expect(changed.headers.get("etag")).not.toBe(etag);
  });
});
