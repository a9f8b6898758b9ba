import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUEST_VOICES } from "../../common/guest-voices.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { books } from "../../server/db/schema.ts";
import { seedDemo } from "../../server/db/seed-demo.ts";
import { createLogger } from "../../server/logger.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, ensureTags } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("robots, sitemap and feed on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
    await ensureTags(t.db, ["Late Autumn"]);
    await createPoem(t.db, {
      slug: "older",
      title: "Older",
      createdAt: new Date("2026-01-01T00:00:00Z"),
      publishAt: new Date("2026-01-01T00:00:00Z"),
      // Edited long after it came out, and after the newer poem did.
      updatedAt: new Date("2026-04-10T00:00:00Z"),
    });
    await createPoem(t.db, {
      slug: "bread-and-salt",
      title: 'Bread & <Salt> "quoted"',
      stanzas: ["first / line <b>", "second"],
      createdAt: new Date("2026-03-01T00:00:00Z"),
      publishAt: new Date("2026-03-01T00:00:00Z"),
      updatedAt: new Date("2026-03-05T00:00:00Z"),
    });
    // Written, then scheduled for later: it came out after its last edit.
    await createPoem(t.db, {
      slug: "scheduled-then",
      title: "Scheduled Then",
      createdAt: new Date("2026-02-01T00:00:00Z"),
      updatedAt: new Date("2026-02-01T00:00:00Z"),
      publishAt: new Date("2026-02-20T00:00:00Z"),
    });
    await t.db.insert(books).values({
      title: "B",
      slug: "the-book",
      blurb: "b",
      coverUrl: "/c.png",
      buyUrl: "https://example.com",
    });
  });
  afterAll(() => t.close());

  it("serves robots.txt pointing at the sitemap", async () => {
    const response = await t.app.request("/robots.txt");
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain("User-agent: *\nAllow: /\n");
    expect(text).toContain("Disallow: /admin");
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });

  it("lists every page, poem, theme and book in the sitemap", async () => {
    const response = await t.app.request("/sitemap.xml");
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    for (const path of [
      "/",
      "/poetry",
      "/ember/archive",
      "/books",
      "/guest-voices",
      "/contribute",
    ]) {
      expect(xml).toContain(`<loc>http://localhost:3000${path}</loc>`);
    }
    expect(xml).toContain(
      "<loc>http://localhost:3000/poetry/bread-and-salt</loc><lastmod>2026-03-05</lastmod>",
    );
    expect(xml).toContain(
      "<loc>http://localhost:3000/poetry/scheduled-then</loc><lastmod>2026-02-20</lastmod>",
    );
    for (const voice of GUEST_VOICES) {
      expect(xml).toContain(`<loc>http://localhost:3000/guest-voices/${voice.slug}</loc>`);
    }
    expect(xml).toContain("<loc>http://localhost:3000/themes/late-autumn</loc>");
    expect(xml).toContain("<loc>http://localhost:3000/book/the-book/preview</loc>");
  });

  it("publishes an escaped Atom feed of the newest poems", async () => {
    const response = await t.app.request("/feed.xml");
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await response.text();
    expect(xml.match(/<entry>/g)).toHaveLength(3);
    expect(xml).not.toContain("<Salt>");
    expect(xml).toContain("<title>Bread &amp; &lt;Salt&gt; &quot;quoted&quot;</title>");
    expect(xml).toContain("<summary>first / line &lt;b&gt;</summary>");
    expect(xml.indexOf("bread-and-salt")).toBeLessThan(xml.indexOf("older"));
  });

  it("dates each entry no later published than updated, and the feed by its latest change", async () => {
    const xml = await (await t.app.request("/feed.xml")).text();
    const [head = "", ...entries] = xml.split("<entry>");
    const dates = entries.map((entry) => ({
      id: /<id>([^<]+)<\/id>/.exec(entry)?.[1],
      published: /<published>([^<]+)<\/published>/.exec(entry)?.[1] ?? "",
      updated: /<updated>([^<]+)<\/updated>/.exec(entry)?.[1] ?? "",
    }));
    expect(dates).toEqual([
      {
        id: "http://localhost:3000/poetry/bread-and-salt",
        published: "2026-03-01T00:00:00.000Z",
        updated: "2026-03-05T00:00:00.000Z",
      },
      {
        id: "http://localhost:3000/poetry/scheduled-then",
        published: "2026-02-20T00:00:00.000Z",
        updated: "2026-02-20T00:00:00.000Z",
      },
      {
        id: "http://localhost:3000/poetry/older",
        published: "2026-01-01T00:00:00.000Z",
        updated: "2026-04-10T00:00:00.000Z",
      },
    ]);
    // The edit to the oldest poem is the feed's latest change.
    expect(head).toContain("<updated>2026-04-10T00:00:00.000Z</updated>");
  });
});

describe("the demo content's feed", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    await seedDemo(t.db, t.config, createLogger("silent"));
  });
  afterAll(() => t.close());

  it("publishes each back-dated demo poem when it was written, not when it was seeded", async () => {
    const xml = await (await t.app.request("/feed.xml")).text();
    const entries = xml.split("<entry>").slice(1);
    expect(entries).toHaveLength(DEMO_POEMS.length);
    const dates = entries.map((entry) => ({
      published: Date.parse(/<published>([^<]+)</.exec(entry)?.[1] ?? ""),
      updated: Date.parse(/<updated>([^<]+)</.exec(entry)?.[1] ?? ""),
    }));
    for (const { published, updated } of dates) expect(published).toBeLessThanOrEqual(updated);
    // Newest first, as far apart as the demo poems were written.
    const DAY = 86_400_000;
    const ages = dates.map(({ published }) => Math.round((Date.now() - published) / DAY));
    expect(ages).toEqual(DEMO_POEMS.map((poem) => poem.daysAgo));
    const feedUpdated = Date.parse(/<updated>([^<]+)</.exec(xml)?.[1] ?? "");
    expect(feedUpdated).toBe(Math.max(...dates.map(({ updated }) => updated)));
  });
});
