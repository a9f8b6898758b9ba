import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ORIGINAL_BOOKS_PAGE } from "../../common/book-slots.ts";
import { endpoints } from "../../common/endpoints.ts";
import type { SiteSettings } from "../../common/schemas/settings.ts";
import { poems, siteSettings, tags, whispers } from "../../server/db/schema.ts";
import type { PageCache } from "../../server/http/page-cache.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { startCachedServer } from "../helpers/cached-server.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, ensureTags } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const DEFAULTS: SiteSettings = {
  siteTitle: "Ember Verse",
  tagline: "Poems to read slowly, one stanza at a time.",
  poetName: null,
  poetBio: null,
  portraitUrl: null,
  links: [],
  filterTagIds: null,
  homeThemeTagIds: null,
  bookSlotTitles: [
    "The Shape of Belonging",
    "The Roads That Make Us",
    "The Silence That Holds Us",
    "The Weight We Carry",
    "The Fire That Shapes Us",
  ],
  copyrightFrom: null,
  holdWhispers: false,
  booksPage: ORIGINAL_BOOKS_PAGE,
  pinnedPoemId: null,
};

/** The texts of the elements of a page's list or nav labelled `label`, in order. */
function linksIn(html: string, label: string): string[] {
  const start = html.indexOf(`aria-label="${label}"`);
  if (start < 0) return [];
  const section = html.slice(start, html.indexOf("</nav>", start));
  return [...section.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((match) => match[1] ?? "");
}

function structuredData(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1] ?? "null") as Record<string, unknown>,
  );
}

const homeThemes = (html: string) => {
  const start = html.indexOf('id="current-themes"');
  const section = html.slice(start, html.indexOf("</section>", start));
  return [...section.matchAll(/font-serif text-2xl text-stone-900">([^<]*)</g)].map(
    (match) => match[1],
  );
};

const slotTitles = (html: string) =>
  [...html.matchAll(/<h2 class="font-serif text-2xl text-stone-900">([^<]*)<\/h2>/g)].map(
    (match) => match[1],
  );

describe.each(drivers)("site settings on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let clock = new Date("2026-06-01T12:00:00Z");
  let tagIds: Record<string, number>;
  let saltRoadId: number;

  const page = async (path: string) => {
    const response = await t.app.request(path);
    expect(response.status).toBe(200);
    return response.text();
  };
  const getSettings = async () =>
    wireAnswer(
      endpoints.getSiteSettings,
      await api(t.app, "GET", "/api/admin/settings", { cookie: admin }),
    );
  const put = (body: unknown, cookie = admin) =>
    api(t.app, "PUT", "/api/admin/settings", { cookie, origin: SITE_ORIGIN, body });

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler, now: () => clock });
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
    ({ id: saltRoadId } = await createPoem(t.db, {
      slug: "salt-road",
      title: "Salt Road",
      tagNames: ["Salt"],
      publishAt: new Date("2020-01-01T00:00:00Z"),
    }));
    const rows = await ensureTags(t.db, ["Salt", "Rain", "Bread", "Stone", "Tide", "Ash"]);
    tagIds = Object.fromEntries(rows.map((row) => [row.name, row.id]));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    clock = new Date("2026-06-01T12:00:00Z");
    await t.db.delete(siteSettings);
    await t.services.contentChanges.announce();
  });

  it("answers the defaults, and every page is as it was before settings, with no tag made for them", async () => {
    const tagsBefore = await t.db.select().from(tags);
    expect(await getSettings()).toEqual(DEFAULTS);

    const poetry = await page("/poetry");
    expect(linksIn(poetry, "Pillars")).toEqual([
      "Becoming",
      "Belonging",
      "Fatherhood",
      "Pilgrimage",
    ]);
    const home = await page("/");
    expect(home).toContain("<title>Home | Ember Verse</title>");
    expect(home).toContain("Poems to read slowly, one stanza at a time.");
    expect(homeThemes(home)).toEqual(["Belonging", "Becoming", "Sacred"]);
    expect(home).toContain("Tables, rooms and the people who set a plate for us.");
    expect(home).toContain("© 2025 Ember Verse. All rights reserved.");
    expect(linksIn(home, "Footer")).toEqual(["Home", "Poetry", "Daily Embers", "Books"]);
    expect(linksIn(home, "About this site")).toEqual(["About", "Privacy"]);
    const books = await page("/books");
    expect(slotTitles(books)).toEqual(DEFAULTS.bookSlotTitles);
    // The Books page's own words, as they were before the poet could change them.
    expect(books).toContain("Book 1 · Belonging");
    expect(books).toContain("Book 5 · Becoming");
    expect(books).toContain("Let me be the grey that softens into gold.");
    // No book is in any slot here: each says so on its placeholder cover and its button.
    expect(books.match(/>Coming Soon</g)).toHaveLength(10);
    expect(books).toContain(
      "A library of echoes in five themes: Belonging, Pilgrimage, Memory, Fatherhood, Becoming.",
    );
    // Until the poet is named, the site is the poem's author (decision 057).
    expect(structuredData(await page("/poetry/salt-road"))[0]?.author).toEqual({
      "@type": "Organization",
      name: "Ember Verse",
    });

    expect(await t.db.select().from(tags)).toEqual(tagsBefore);
  });

  it("takes every field at once, answers the whole object, and every page shows it", async () => {
    const chosen: SiteSettings = {
      siteTitle: "Salt House",
      tagline: "Small poems about the sea.",
      poetName: "Rowan Ash",
      poetBio: "Rowan writes by the sea.\n\nTwo books, one boat.",
      portraitUrl: "/objects/images/portrait-1",
      links: [
        { label: "Mastodon", url: "https://poets.example/@rowan" },
        { label: "Website", url: "https://rowan.example" },
      ],
      filterTagIds: [tagIds.Salt, tagIds.Rain, tagIds.Bread, tagIds.Stone] as number[],
      homeThemeTagIds: [tagIds.Tide, tagIds.Ash, tagIds.Salt] as number[],
      bookSlotTitles: ["Brine", "Oars", "Fog", "Nets", "Harbour"],
      copyrightFrom: 2019,
      holdWhispers: true,
      booksPage: {
        slots: ORIGINAL_BOOKS_PAGE.slots.map((_slot, index) => ({
          label: `Volume ${index + 1}`,
          pullQuote: index === 0 ? "" : `The sea, ${index + 1}`,
          comingSoon: index === 4 ? "" : "Next spring",
          isHiddenWhenEmpty: index === 3,
        })),
        closing: "Five books of salt.",
      },
      pinnedPoemId: saltRoadId,
    };
    const response = await put(chosen);
    expect(response.status).toBe(200);
    expect(await wireAnswer(endpoints.updateSiteSettings, response)).toEqual(chosen);
    expect(await getSettings()).toEqual(chosen);

    const home = await page("/");
    expect(home).toContain("<title>Home | Salt House</title>");
    expect(home).toContain("Small poems about the sea.");
    expect(homeThemes(home)).toEqual(["Tide", "Ash", "Salt"]);
    expect(home).toContain("© 2019–2026 Rowan Ash. All rights reserved.");
    expect(linksIn(home, "Footer")).toEqual(["Home", "Poetry", "Daily Embers", "Books"]);
    expect(linksIn(await page("/poetry"), "Pillars")).toEqual(["Salt", "Rain", "Bread", "Stone"]);
    // The fourth slot has no book and is hidden while it has none.
    expect(slotTitles(await page("/books"))).toEqual(["Brine", "Oars", "Fog", "Harbour"]);

    const about = await page("/about");
    expect(about).toContain("<title>About | Salt House</title>");
    expect(about).toContain('src="/objects/images/portrait-1"');
    expect(about).toContain("Rowan writes by the sea.");
    expect(about).toContain('<a href="https://poets.example/@rowan" rel="me noopener"');
    expect(about).toContain('<a href="https://rowan.example" rel="me noopener"');
    expect(structuredData(about)).toEqual([
      {
        "@context": "https://schema.org",
        "@type": "Person",
        name: "Rowan Ash",
        url: "http://localhost:3000/about",
        description: chosen.poetBio,
        image: "http://localhost:3000/objects/images/portrait-1",
        sameAs: ["https://poets.example/@rowan", "https://rowan.example"],
      },
    ]);
    expect(structuredData(await page("/poetry/salt-road"))[0]?.author).toEqual({
      "@type": "Person",
      name: "Rowan Ash",
      url: "http://localhost:3000/about",
    });
  });

  it("keeps what a PUT does not send, and an empty value or null goes back to the default", async () => {
    await put({ siteTitle: "Salt House", poetName: "Rowan Ash", copyrightFrom: 2020 });
    const response = await put({ tagline: "Sea poems." });
    expect(await wireAnswer(endpoints.updateSiteSettings, response)).toEqual({
      ...DEFAULTS,
      siteTitle: "Salt House",
      poetName: "Rowan Ash",
      copyrightFrom: 2020,
      tagline: "Sea poems.",
    });
    await put({ filterTagIds: [tagIds.Salt, tagIds.Rain, tagIds.Bread, tagIds.Stone] });
    const reset = await put({
      siteTitle: "",
      tagline: null,
      poetName: "",
      copyrightFrom: null,
      filterTagIds: null,
    });
    expect(await wireAnswer(endpoints.updateSiteSettings, reset)).toEqual(DEFAULTS);
    expect(await page("/")).toContain("© 2025 Ember Verse. All rights reserved.");
  });

  it("shows one year while the first is this year on the site's clock, and a range once it is past", async () => {
    await put({ copyrightFrom: 2026 });
    expect(await page("/")).toContain("© 2026 Ember Verse. All rights reserved.");
    clock = new Date("2027-01-01T00:30:00Z");
    await t.services.contentChanges.announce();
    expect(await page("/")).toContain("© 2026–2027 Ember Verse. All rights reserved.");
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ["a site title over 80 characters", { siteTitle: "t".repeat(81) }, "siteTitle"],
    ["a tagline over 160 characters", { tagline: "t".repeat(161) }, "tagline"],
    ["a poet's name over 80 characters", { poetName: "n".repeat(81) }, "poetName"],
    ["a bio over 1000 characters", { poetBio: "b".repeat(1001) }, "poetBio"],
    [
      "a portrait that is not an uploaded image",
      { portraitUrl: "/objects/audio/abc" },
      "portraitUrl",
    ],
    ["a portrait on another site", { portraitUrl: "https://x.example/me.pdf" }, "portraitUrl"],
    ["three chips", { filterTagIds: [1, 2, 3] }, "filterTagIds"],
    ["five chips", { filterTagIds: [1, 2, 3, 4, 5] }, "filterTagIds"],
    ["the same chip twice", { filterTagIds: [1, 1, 2, 3] }, "filterTagIds"],
    ["two themes", { homeThemeTagIds: [1, 2] }, "homeThemeTagIds"],
    ["four themes", { homeThemeTagIds: [1, 2, 3, 4] }, "homeThemeTagIds"],
    ["four book slot titles", { bookSlotTitles: ["a", "b", "c", "d"] }, "bookSlotTitles"],
    ["an empty book slot title", { bookSlotTitles: ["a", "", "c", "d", "e"] }, "bookSlotTitles.1"],
    [
      "a link that is not a web address",
      { links: [{ label: "Me", url: "javascript:alert(1)" }] },
      "links.0.url",
    ],
    ["a year that is not a year", { copyrightFrom: "soon" }, "copyrightFrom"],
    ["holdWhispers that is not a boolean", { holdWhispers: "yes" }, "holdWhispers"],
  ];

  it.each(refusals)(
    "refuses %s with 400 naming the field, and saves nothing",
    async (_, body, field) => {
      const response = await put({ siteTitle: "Not Saved", ...body });
      expect(response.status).toBe(400);
      const answer = (await response.json()) as {
        message: string;
        errors: Record<string, string[]>;
      };
      expect(Object.keys(answer.errors)).toContain(field);
      expect(answer.message).toBeTruthy();
      expect(await getSettings()).toEqual(DEFAULTS);
    },
  );

  it("refuses a tag that does not exist and a year in the future, saving none of the PUT", async () => {
    const unknownTag = await put({
      siteTitle: "Not Saved",
      homeThemeTagIds: [tagIds.Salt, tagIds.Rain, 999_999],
    });
    expect(unknownTag.status).toBe(400);
    expect(await unknownTag.json()).toMatchObject({
      message: "Choose tags from the list",
      errors: { homeThemeTagIds: ["Choose tags from the list"] },
    });
    const future = await put({ poetName: "Not Saved", copyrightFrom: 2027 });
    expect(future.status).toBe(400);
    expect(await future.json()).toMatchObject({
      message: "The first year cannot be in the future",
      errors: { copyrightFrom: ["The first year cannot be in the future"] },
    });
    expect(await getSettings()).toEqual(DEFAULTS);
    // The site's clock decides which year is the current one.
    clock = new Date("2027-03-01T00:00:00Z");
    expect((await put({ copyrightFrom: 2027 })).status).toBe(200);
  });

  it("puts the poet's words on the Books page: what they clear is left off, an empty slot they hide is gone", async () => {
    const slots = ORIGINAL_BOOKS_PAGE.slots.map((slot) => ({ ...slot }));
    slots[0] = { ...slots[0], label: "First of five", pullQuote: "" } as (typeof slots)[number];
    slots[1] = { ...slots[1], comingSoon: "Spring 2027" } as (typeof slots)[number];
    slots[2] = { ...slots[2], isHiddenWhenEmpty: true } as (typeof slots)[number];
    slots[3] = { ...slots[3], label: "", comingSoon: "" } as (typeof slots)[number];
    const response = await put({ booksPage: { slots, closing: "" } });
    expect(response.status).toBe(200);
    const saved = await wireAnswer(endpoints.updateSiteSettings, response);
    expect(saved.booksPage).toEqual({ slots, closing: "" });

    const books = await page("/books");
    // Slot 3 has no book and is hidden; the rest keep their order.
    expect(slotTitles(books)).toEqual([
      "The Shape of Belonging",
      "The Roads That Make Us",
      "The Weight We Carry",
      "The Fire That Shapes Us",
    ]);
    expect(books).toContain("First of five");
    expect(books).not.toContain("Book 1 · Belonging");
    // What the page does not show is not in its data either.
    expect(books).not.toContain(ORIGINAL_BOOKS_PAGE.slots[0]?.pullQuote);
    expect(books).not.toContain("Book 4 · Fatherhood");
    expect(books.match(/>Spring 2027</g)).toHaveLength(2);
    // Slot 4 says nothing while empty: its cover shows the icon alone and it has no button.
    expect(books.match(/>Coming Soon</g)).toHaveLength(4);
    expect(books).not.toContain("A library of echoes");

    // Words equal to the originals are the originals again: a later change to them follows.
    const back = await put({ booksPage: ORIGINAL_BOOKS_PAGE });
    expect((await wireAnswer(endpoints.updateSiteSettings, back)).booksPage).toEqual(
      ORIGINAL_BOOKS_PAGE,
    );
    const [row] = await t.db.select().from(siteSettings);
    expect(row?.booksPage).toBeNull();
    expect(slotTitles(await page("/books"))).toEqual(DEFAULTS.bookSlotTitles);
  });

  it("refuses Books page words over their limits, naming the field", async () => {
    const slots = ORIGINAL_BOOKS_PAGE.slots.map((slot) => ({ ...slot }));
    slots[2] = { ...slots[2], pullQuote: "x".repeat(301) } as (typeof slots)[number];
    const response = await put({ booksPage: { slots, closing: "" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      errors: { "booksPage.slots.2.pullQuote": ["A pull quote must be 300 characters or less"] },
    });
    expect(await getSettings()).toEqual(DEFAULTS);
  });

  it("shows the pinned poem first on home, and the newest while readers cannot see the pinned one", async () => {
    const newer = await createPoem(t.db, {
      slug: "tide-clock",
      title: "Tide Clock",
      stanzas: ["the tide keeps / its own clock"],
      tagNames: ["Tide"],
      publishAt: new Date("2024-01-01T00:00:00Z"),
    });
    try {
      let home = await page("/");
      expect(home).toContain("Newest poem");
      expect(home).toContain("Tide Clock");

      expect((await put({ pinnedPoemId: saltRoadId })).status).toBe(200);
      home = await page("/");
      expect(home).toContain("A poem to begin with");
      expect(home).toMatch(/Read “(<!-- -->)?Salt Road/);
      expect(home).toContain(
        '<meta property="og:image" content="http://localhost:3000/og/stanza/salt-road/0.png"/>',
      );

      // A draft is not shown to readers: home waits for it with the newest.
      await t.db.update(poems).set({ draft: true }).where(eq(poems.id, saltRoadId));
      await t.services.contentChanges.announce();
      home = await page("/");
      expect(home).toContain("Newest poem");
      expect(home).toMatch(/Read “(<!-- -->)?Tide Clock/);

      const unknown = await put({ pinnedPoemId: 999_999 });
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({
        errors: { pinnedPoemId: ["Choose a published poem from the list"] },
      });
    } finally {
      await t.db.update(poems).set({ draft: false }).where(eq(poems.id, saltRoadId));
      await t.db.delete(siteSettings);
      await t.db.delete(poems).where(eq(poems.id, newer.id));
      await t.services.contentChanges.announce();
    }
  });

  it("is for the admin only", async () => {
    expect((await api(t.app, "GET", "/api/admin/settings")).status).toBe(401);
    expect((await api(t.app, "GET", "/api/admin/settings", { cookie: reader })).status).toBe(403);
    expect((await put({ siteTitle: "Taken Over" }, reader)).status).toBe(403);
    expect(await getSettings()).toEqual(DEFAULTS);
  });

  it("clears the page cache like a content write: the next request shows the change", async () => {
    const { build } = await loadPageHandler();
    const cached = await startCachedServer(t, build);
    const unsubscribe = t.services.contentChanges.onChange(() => cached.cache.clear());
    try {
      const before = await (await fetch(`${cached.base}/`)).text();
      expect(before).toContain("Poems to read slowly, one stanza at a time.");
      await vi.waitUntil(() => (cached.cache as PageCache).stats().entries === 1);
      expect((await put({ tagline: "The tide is in." })).status).toBe(200);
      expect(cached.cache.stats().entries).toBe(0);
      expect(await (await fetch(`${cached.base}/`)).text()).toContain("The tide is in.");
    } finally {
      unsubscribe();
      await cached.close();
    }
  });

  it("holds new whispers hidden while set, and shares them at once again when not", async () => {
    await t.db.delete(whispers);
    const whisper = (text: string) =>
      api(t.app, "POST", "/api/poems/salt-road/whispers", {
        cookie: reader,
        origin: SITE_ORIGIN,
        body: { stanzaIndex: 0, body: text },
      });
    const shown = async () =>
      (
        await wireAnswer(
          endpoints.listWhispers,
          await api(t.app, "GET", "/api/poems/salt-road/whispers/0"),
        )
      ).map((item) => item.text);

    await put({ holdWhispers: true });
    const held = await whisper("Held for the poet");
    expect(held.status).toBe(201);
    expect(await held.json()).toMatchObject({ text: "Held for the poet", isApproved: false });
    expect(await shown()).toEqual([]);
    const [stored] = await t.db.select().from(whispers);
    expect(stored?.isApproved).toBe(false);

    const approve = await api(t.app, "POST", `/api/admin/whispers/${stored?.id}/approve`, {
      cookie: admin,
      origin: SITE_ORIGIN,
      body: {},
    });
    expect(approve.status).toBe(200);
    expect(await shown()).toEqual(["Held for the poet"]);

    await put({ holdWhispers: false });
    const open = await whisper("Shared at once");
    expect(await open.json()).toMatchObject({ isApproved: true });
    expect(await shown()).toEqual(["Shared at once", "Held for the poet"]);
  });
});
