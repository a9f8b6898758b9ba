import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

function structuredData(html: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(html);
  return JSON.parse(match?.[1] ?? "null") as Record<string, unknown>;
}

/**
 * docs/product/reading.md, Poem page: the byline and the publication date, shown and in JSON-LD,
 * are the poem's publication (an imported poem keeps its original day), not the day its row was
 * made.
 */
describe.each(drivers)("a poem's byline on %s", (driver) => {
  let t: TestApp;

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    await createPoem(t.db, {
      slug: "imported-in-2024",
      title: "Imported in 2024",
      publishAt: new Date("2024-03-02T12:00:00Z"),
    });
  }, 120_000);
  afterAll(() => t?.close());

  it("names the poet and the day it was published, under the title and in JSON-LD", async () => {
    const response = await t.app.request("/poetry/imported-in-2024");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(
      /by <span[^>]*>Ember Verse<\/span> · <time datetime="2024-03-02">March 2, 2024<\/time>/i,
    );
    expect(structuredData(html)).toMatchObject({
      datePublished: "2024-03-02T12:00:00.000Z",
      author: { "@type": "Organization", name: "Ember Verse" },
    });
  });
});
