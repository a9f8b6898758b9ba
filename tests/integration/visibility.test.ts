import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayInZone } from "../../common/dates.ts";
import { books, journalEntries, poems, users } from "../../server/db/schema.ts";
import { isReadable, readablePoems } from "../../server/db/visibility.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createPoem } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Rows the visibility module (server/db/visibility.ts) hides from readers, each with a marker
 * that must not appear behind any reader door. Each new rule adds its row here.
 */
const FAR_FUTURE = new Date("2999-01-01T00:00:00.000Z");
const hiddenBook =
  (marker: string, fields: { draft?: boolean; publishAt?: Date; deletedAt?: Date }) =>
  (t: TestApp) =>
    t.db.insert(books).values({
      title: marker,
      slug: marker.toLowerCase(),
      blurb: marker,
      coverUrl: "/objects/images/cover",
      buyUrl: "https://example.com/buy",
      ...fields,
    });

const HIDDEN_ROWS = [
  {
    name: "a draft poem",
    marker: "HIDDEN-DRAFT-POEM",
    seed: (t: TestApp) =>
      createPoem(t.db, {
        slug: "hidden-draft-poem",
        title: "HIDDEN-DRAFT-POEM",
        stanzas: ["HIDDEN-DRAFT-POEM / a line"],
        tagNames: ["Hearth"],
        draft: true,
      }),
  },
  {
    name: "a scheduled poem",
    marker: "HIDDEN-SCHEDULED-POEM",
    seed: (t: TestApp) =>
      createPoem(t.db, {
        slug: "hidden-scheduled-poem",
        title: "HIDDEN-SCHEDULED-POEM",
        stanzas: ["HIDDEN-SCHEDULED-POEM / a line"],
        tagNames: ["Hearth"],
        publishAt: FAR_FUTURE,
      }),
  },
  {
    name: "a draft book",
    marker: "HIDDEN-DRAFT-BOOK",
    seed: hiddenBook("HIDDEN-DRAFT-BOOK", { draft: true }),
  },
  {
    name: "a scheduled book",
    marker: "HIDDEN-SCHEDULED-BOOK",
    seed: hiddenBook("HIDDEN-SCHEDULED-BOOK", { publishAt: FAR_FUTURE }),
  },
  {
    name: "a deleted poem",
    marker: "HIDDEN-DELETED-POEM",
    seed: (t: TestApp) =>
      createPoem(t.db, {
        slug: "hidden-deleted-poem",
        title: "HIDDEN-DELETED-POEM",
        stanzas: ["HIDDEN-DELETED-POEM / a line"],
        tagNames: ["Hearth"],
        deletedAt: new Date(),
      }),
  },
  {
    name: "a deleted book",
    marker: "HIDDEN-DELETED-BOOK",
    seed: hiddenBook("HIDDEN-DELETED-BOOK", { deletedAt: new Date() }),
  },
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
  "/journal",
  "/api/journal",
  // Every hidden row's marker holds the word 'hidden'.
  "/search?q=hidden",
  "/search.data?q=hidden",
  "/api/search?q=hidden",
];

describe.each(drivers)("what readers may see, at every door, on %s", (driver) => {
  let t: TestApp;
  let reader: string;
  let admin: string;

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    reader = await signIn(t, "reader@example.com");
    admin = await signIn(t, "poet@example.com", { admin: true });
    await createPoem(t.db, {
      slug: "open-poem",
      title: "Open Poem",
      stanzas: ["a line / another"],
      tagNames: ["Hearth"],
    });
    await createEmber(t.db, { day: dayInZone(t.config.siteTimezone), text: "Today's ember" });
    for (const row of HIDDEN_ROWS) await row.seed(t);
    // The reader saved stanzas of the hidden poems while they were out.
    for (const poemSlug of ["hidden-draft-poem", "hidden-scheduled-poem", "hidden-deleted-poem"]) {
      const [poem] = await t.db
        .select({ id: poems.id })
        .from(poems)
        .where(eq(poems.slug, poemSlug));
      const [user] = await t.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, "reader@example.com"));
      await t.db
        .insert(journalEntries)
        .values({ poemId: poem?.id ?? 0, userId: user?.id ?? "", stanzaIndex: "0" });
    }
  }, 120_000);
  afterAll(() => t.close());

  it.each(HIDDEN_ROWS)("shows no reader $name", async ({ marker }) => {
    const shown: string[] = [];
    for (const door of READER_DOORS) {
      for (const [audience, cookie] of [
        ["anonymous", undefined],
        ["reader", reader],
      ] as const) {
        // The journal API is for signed-in readers only.
        if (door === "/api/journal" && !cookie) continue;
        const response = await t.app.request(door, { headers: cookie ? { Cookie: cookie } : {} });
        expect(response.status, `${door} as ${audience}`).toBe(200);
        if ((await response.text()).includes(marker)) shown.push(`${door} as ${audience}`);
      }
    }
    // The digest the admin previews and sends holds only what readers may see.
    const digest = await t.app.request("/api/admin/digest/content", { headers: { Cookie: admin } });
    expect(digest.status).toBe(200);
    if ((await digest.text()).includes(marker)) shown.push("the digest's content");
    expect(shown).toEqual([]);
  });

  it("still shows readers what they may see, so the walk above is not vacuous", async () => {
    expect(await (await t.app.request("/api/ember/today")).text()).toContain("Today's ember");
    expect(await (await t.app.request("/poetry")).text()).toContain("Open Poem");
    expect(await (await t.app.request("/feed.xml")).text()).toContain("Open Poem");
    expect(await (await t.app.request("/api/search?q=open")).text()).toContain("Open Poem");
    expect(await (await t.app.request("/search?q=today")).text()).toContain("Today's ember");
  });

  it("decides a poem in memory (isReadable) as its query does (readablePoems), for every audience", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 1000);
    const cases = [
      { draft: false, publishAt: past, deletedAt: null },
      { draft: false, publishAt: now, deletedAt: null },
      { draft: false, publishAt: new Date(now.getTime() + 1000), deletedAt: null },
      { draft: true, publishAt: past, deletedAt: null },
      { draft: true, publishAt: new Date(now.getTime() + 1000), deletedAt: null },
      { draft: false, publishAt: past, deletedAt: past },
      { draft: true, publishAt: past, deletedAt: past },
    ];
    const slugs: string[] = [];
    for (const [index, fields] of cases.entries()) {
      slugs.push((await createPoem(t.db, { slug: `rule-${index}`, ...fields })).slug);
    }
    for (const audience of ["anonymous", "reader", "admin"] as const) {
      const rows = await t.db
        .select({ slug: poems.slug })
        .from(poems)
        .where(and(inArray(poems.slug, slugs), readablePoems(audience, now)));
      const byQuery = new Set(rows.map((row) => row.slug));
      for (const [index, fields] of cases.entries()) {
        expect(isReadable(fields, audience, now), `${audience} ${JSON.stringify(fields)}`).toBe(
          byQuery.has(`rule-${index}`),
        );
      }
    }
  });
});
