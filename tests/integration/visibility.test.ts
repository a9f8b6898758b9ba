import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayInZone } from "../../common/dates.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createPoem } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Rows the visibility module (server/db/visibility.ts) hides from readers, each with a marker
 * that must not appear behind any reader door. Each new rule adds its row here.
 */
const HIDDEN_ROWS = [
  {
    name: "an ember dated tomorrow",
    marker: "HIDDEN-TOMORROWS-EMBER",
    seed: (t: TestApp) =>
      createEmber(t.db, {
        day: addDays(dayInZone(t.config.siteTimezone), 1),
        text: "HIDDEN-TOMORROWS-EMBER",
        isFeatured: true,
        featuredAt: new Date(),
        tagNames: ["Hearth"],
      }),
  },
];

/**
 * Every door through which a reader reads poems, books or embers: pages (as documents and as
 * client-navigation data), the public API, the feed and sitemap, the share page and its card.
 */
const READER_DOORS = [
  "/",
  "/.data",
  "/poetry",
  "/poetry.data",
  "/poetry/open-poem",
  "/themes/hearth",
  "/themes/hearth.data",
  "/ember",
  "/ember.data",
  "/ember/archive",
  "/books",
  "/share/poem/open-poem?s=0",
  "/api/poems",
  "/api/poems?tag=Hearth",
  "/api/themes/hearth",
  "/api/embers",
  "/api/embers/featured",
  "/api/ember/today",
  "/api/books",
  "/api/poems/open-poem/echos",
  "/feed.xml",
  "/sitemap.xml",
];

describe.each(drivers)("what readers may see, at every door, on %s", (driver) => {
  let t: TestApp;
  let reader: string;

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    reader = await signIn(t, "reader@example.com");
    await createPoem(t.db, {
      slug: "open-poem",
      title: "Open Poem",
      stanzas: ["a line / another"],
      tagNames: ["Hearth"],
    });
    await createEmber(t.db, { day: dayInZone(t.config.siteTimezone), text: "Today's ember" });
    for (const row of HIDDEN_ROWS) await row.seed(t);
  }, 120_000);
  afterAll(() => t.close());

  it.each(HIDDEN_ROWS)("shows no reader $name", async ({ marker }) => {
    const shown: string[] = [];
    for (const door of READER_DOORS) {
      for (const [audience, cookie] of [
        ["anonymous", undefined],
        ["reader", reader],
      ] as const) {
        const response = await t.app.request(door, { headers: cookie ? { Cookie: cookie } : {} });
        expect(response.status, `${door} as ${audience}`).toBe(200);
        if ((await response.text()).includes(marker)) shown.push(`${door} as ${audience}`);
      }
    }
    expect(shown).toEqual([]);
  });

  it("still shows readers what they may see, so the walk above is not vacuous", async () => {
    expect(await (await t.app.request("/api/ember/today")).text()).toContain("Today's ember");
    expect(await (await t.app.request("/poetry")).text()).toContain("Open Poem");
    expect(await (await t.app.request("/feed.xml")).text()).toContain("Open Poem");
  });
});
