import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../../server/db/schema.ts";
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
      updatedAt: new Date("2026-01-02T00:00:00Z"),
    });
    await createPoem(t.db, {
      slug: "bread-and-salt",
      title: 'Bread & <Salt> "quoted"',
      stanzas: ["first / line <b>", "second"],
      createdAt: new Date("2026-03-01T00:00:00Z"),
      updatedAt: new Date("2026-03-05T00:00:00Z"),
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
    expect(xml).toContain("<loc>http://localhost:3000/themes/late-autumn</loc>");
    expect(xml).toContain("<loc>http://localhost:3000/book/the-book/preview</loc>");
  });

  it("publishes an escaped Atom feed of the newest poems", async () => {
    const response = await t.app.request("/feed.xml");
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await response.text();
    expect(xml.match(/<entry>/g)).toHaveLength(2);
    expect(xml).not.toContain("<Salt>");
    expect(xml).toContain("<title>Bread &amp; &lt;Salt&gt; &quot;quoted&quot;</title>");
    expect(xml).toContain("<summary>first / line &lt;b&gt;</summary>");
    expect(xml.indexOf("bread-and-salt")).toBeLessThan(xml.indexOf("older"));
    expect(xml).toContain("<updated>2026-03-05T00:00:00.000Z</updated>");
  });
});
