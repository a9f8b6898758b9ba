import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PageCache } from "../../server/http/page-cache.ts";
import { startCachedServer } from "../helpers/cached-server.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const AP = "application/activity+json";

/**
 * A poem's page and its ActivityStreams object share one address (docs/product/fediverse.md):
 * the page cache keeps the page for browsers and never answers an ActivityPub client with it, nor
 * keeps the object as the page; both say they vary with Accept. FEDIVERSE=false turns it all off.
 */
describe.each(drivers)("fediverse pages on %s", (driver) => {
  let t: TestApp;
  let off: TestApp;
  let base: string;
  let cache: PageCache;
  let closeServer: () => Promise<unknown>;

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    off = await createTestApp(driver, { pageHandler, env: { FEDIVERSE: "false" } });
    for (const app of [t, off])
      await createPoem(app.db, { slug: "ember-tide", title: "Ember Tide" });
    ({ cache, base, close: closeServer } = await startCachedServer(t, build));
  }, 120_000);
  afterAll(async () => {
    await closeServer();
    await t.close();
    await off.close();
  });

  for (const path of ["/poetry/ember-tide", "/share/poem/ember-tide?s=1"]) {
    it(`keeps the page and the object of ${path} apart in the page cache`, async () => {
      cache.clear();
      const page = await fetch(`${base}${path}`, { headers: { Accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.headers.get("vary")).toMatch(/\bAccept\b/);
      await page.text();
      await vi.waitUntil(() => cache.stats().entries === 1);
      const object = await fetch(`${base}${path}`, { headers: { Accept: AP } });
      expect(object.headers.get("content-type")).toContain(AP);
      expect(object.headers.get("vary")).toMatch(/\bAccept\b/);
      expect(((await object.json()) as { id: string }).id).toBe(`http://localhost:3000${path}`);
      // Asked for the object first, the cache still keeps and serves only the page.
      cache.clear();
      await (await fetch(`${base}${path}`, { headers: { Accept: AP } })).json();
      const after = await fetch(`${base}${path}`, { headers: { Accept: "text/html" } });
      expect(after.headers.get("content-type")).toContain("text/html");
      expect(await after.text()).toContain("Ember Tide");
    });
  }

  it("shows the handle with a Follow on Mastodon hint on the footer's second line", async () => {
    const html = await (await fetch(`${base}/`)).text();
    const secondLine = html.slice(html.indexOf('aria-label="About this site"'));
    expect(secondLine).toContain("@poet@localhost:3000");
    expect(secondLine).toContain("Follow on Mastodon");
    // The footer's own list is untouched.
    const footerList = html.slice(
      html.indexOf('aria-label="Footer"'),
      html.indexOf("</nav>", html.indexOf('aria-label="Footer"')),
    );
    expect(footerList).not.toContain("@poet");
  });

  it("gives the poet their handle to copy on the admin's Fediverse page, with how to follow", async () => {
    const admin = await signIn(t, "poet@example.com", { admin: true });
    const html = await (
      await t.app.request("/admin/fediverse", { headers: { Cookie: admin } })
    ).text();
    const section = html.slice(
      html.indexOf('id="handle-heading"'),
      html.indexOf("</section>", html.indexOf('id="handle-heading"')),
    );
    expect(section).toContain("Your handle");
    expect(section).toContain("@poet@localhost:3000</code>");
    expect(section).toContain("Copy handle");
    expect(section.replaceAll("<!-- -->", "")).toContain(
      "a reader searches for @poet@localhost:3000 on Mastodon",
    );
    const offAdmin = await signIn(off, "poet@example.com", { admin: true });
    const offHtml = await (
      await off.app.request("/admin/fediverse", { headers: { Cookie: offAdmin } })
    ).text();
    expect(offHtml).not.toContain("Your handle");
  });

  it("answers 404 for all of it when FEDIVERSE=false, and pages stay pages", async () => {
    const request = (path: string, init: RequestInit = {}) =>
      off.app.request(`http://localhost:3000${path}`, init);
    for (const path of [
      "/.well-known/webfinger?resource=acct:poet@localhost:3000",
      "/.well-known/nodeinfo",
      "/fediverse/actor/poet",
      "/fediverse/actor/poet/outbox",
    ]) {
      expect((await request(path, { headers: { Accept: AP } })).status, path).toBe(404);
    }
    const inbox = await request("/fediverse/inbox", { method: "POST", body: "{}" });
    expect(inbox.status).toBe(404);
    const poem = await request("/poetry/ember-tide", { headers: { Accept: AP } });
    expect(poem.headers.get("content-type")).toContain("text/html");
    expect(await (await request("/")).text()).not.toContain("Follow on Mastodon");
  });
});
