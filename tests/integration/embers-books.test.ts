import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayInZone, dayToDate } from "../../common/dates.ts";
import { books, embers, guestSubmissions } from "../../server/db/schema.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("embers and books on %s", (driver) => {
  let t: TestApp;
  const today = dayInZone("UTC");

  beforeAll(async () => {
    t = await createTestApp(driver);
    // 25 published embers (today and the 24 days before) and 3 scheduled ones.
    for (let offset = -24; offset <= 3; offset++) {
      await createEmber(t.db, { day: addDays(today, offset), text: `Ember ${offset}` });
    }
  });
  afterAll(() => t.close());

  it("pages embers newest first, never showing scheduled ones", async () => {
    const first = await (await t.app.request("/api/embers")).json();
    expect(first).toHaveLength(10);
    expect(first[0]).toEqual({
      id: expect.any(Number),
      text: "Ember 0",
      date: dayToDate(today).toISOString(),
    });
    const pages = await Promise.all(
      [2, 3, 4].map(async (page) => (await t.app.request(`/api/embers?page=${page}`)).json()),
    );
    expect(pages.map((page) => page.length)).toEqual([10, 5, 0]);
    const all = [first, ...pages].flat().map((ember: { text: string }) => ember.text);
    expect(all).not.toContain("Ember 1");
    expect(new Set(all).size).toBe(25);
  });

  it("caps the limit and refuses page and limit that are not positive integers", async () => {
    expect(await (await t.app.request("/api/embers?limit=3")).json()).toHaveLength(3);
    expect(await (await t.app.request("/api/embers?limit=1000")).json()).toHaveLength(25);
    for (const query of ["page=0", "page=-1", "page=abc", "limit=0", "limit=1.5", "limit="]) {
      const response = await t.app.request(`/api/embers?${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).message).toMatch(/must be a positive integer/);
    }
  });

  it("answers today's ember, and features the latest published one when none is featured", async () => {
    expect(await (await t.app.request("/api/ember/today")).json()).toEqual({
      text: "Ember 0",
      date: dayToDate(today).toISOString(),
    });
    expect(await (await t.app.request("/api/embers/featured")).json()).toEqual({
      text: "Ember 0",
      date: dayToDate(today).toISOString(),
      featuredAt: null,
    });
  });

  it("features the ember an admin most recently featured, never a scheduled one", async () => {
    const { eq } = await import("drizzle-orm");
    await t.db
      .update(embers)
      .set({ isFeatured: true, featuredAt: new Date("2026-01-01T00:00:00Z") })
      .where(eq(embers.text, "Ember -10"));
    await t.db
      .update(embers)
      .set({ isFeatured: true, featuredAt: new Date("2026-02-01T00:00:00Z") })
      .where(eq(embers.text, "Ember -5"));
    await t.db
      .update(embers)
      .set({ isFeatured: true, featuredAt: new Date() })
      .where(eq(embers.text, "Ember 2"));
    const featured = await (await t.app.request("/api/embers/featured")).json();
    expect(featured).toEqual({
      text: "Ember -5",
      date: dayToDate(addDays(today, -5)).toISOString(),
      featuredAt: "2026-02-01T00:00:00.000Z",
    });
  });

  it("lists books in slot order with their pages, and reads one by slug", async () => {
    await t.db.insert(books).values([
      {
        title: "Second",
        slug: "second",
        blurb: "b",
        coverUrl: "/c.png",
        buyUrl: "https://example.com/2",
        order: 2,
      },
      {
        title: "The Shape of Belonging",
        slug: "the-shape-of-belonging",
        blurb: "A blurb",
        coverUrl: "/c.png",
        buyUrl: "https://example.com/1",
        order: 1,
        pages: [{ title: "One", content: "line\nline" }],
      },
    ]);
    const list = await (await t.app.request("/api/books")).json();
    expect(list.map((book: { slug: string }) => book.slug)).toEqual([
      "the-shape-of-belonging",
      "second",
    ]);
    expect(list[1].pages).toEqual([]);
    const book = await (await t.app.request("/api/books/the-shape-of-belonging")).json();
    expect(book).toMatchObject({
      title: "The Shape of Belonging",
      pages: [{ title: "One", content: "line\nline" }],
    });
    const missing = await t.app.request("/api/books/nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "Book not found" });
  });
});

describe("today's ember in the site's time zone", () => {
  it("follows SITE_TIMEZONE, not the server's clock", async () => {
    // UTC+14: its calendar day is usually ahead of UTC's.
    const zone = "Pacific/Kiritimati";
    const t = await createTestApp("pglite", { env: { SITE_TIMEZONE: zone } });
    try {
      const localToday = dayInZone(zone);
      await createEmber(t.db, { day: localToday, text: "Kiritimati today" });
      if (localToday !== dayInZone("UTC"))
        await createEmber(t.db, { day: dayInZone("UTC"), text: "UTC today" });
      expect((await (await t.app.request("/api/ember/today")).json()).text).toBe(
        "Kiritimati today",
      );
      expect((await (await t.app.request("/api/embers")).json())[0].text).toBe("Kiritimati today");
    } finally {
      await t.close();
    }
  });

  it("answers 404 with a clear message when there is no ember today", async () => {
    const t = await createTestApp("pglite");
    try {
      const response = await t.app.request("/api/ember/today");
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "No ember available today" });
    } finally {
      await t.close();
    }
  });
});

describe.each(drivers)("guest submissions on %s", (driver) => {
  let t: TestApp;
  let address = 0;
  const from = () => ({ "X-Forwarded-For": `198.51.100.${++address}` });
  const valid = {
    name: "Rowan Vale",
    email: "Rowan@Example.com",
    poemTitle: "Salt",
    poemText: "The sea keeps what it is given.",
  };

  beforeAll(async () => {
    t = await createTestApp(driver, { env: { TRUST_PROXY: "1" } });
  });
  afterAll(() => t.close());

  it("stores a valid submission", async () => {
    const response = await api(t.app, "POST", "/api/guest-submission", {
      body: {
        ...valid,
        handle: "@rowan",
        socialUrl: "https://example.com/rowan",
        bio: "Writes by the sea.",
      },
      headers: from(),
    });
    expect(response.status).toBe(201);
    const [stored] = await t.db.select().from(guestSubmissions);
    expect(stored).toMatchObject({
      name: "Rowan Vale",
      email: "rowan@example.com",
      handle: "@rowan",
      socialUrl: "https://example.com/rowan",
      bio: "Writes by the sea.",
      poemTitle: "Salt",
    });
  });

  it.each([
    [{ ...valid, name: "  " }, "Please fill in all required fields and confirm consent."],
    [{ ...valid, poemText: undefined }, "Please fill in all required fields and confirm consent."],
    [{ ...valid, bio: "x".repeat(161) }, "Please keep your bio under 160 characters."],
    [{ ...valid, email: "not-an-email" }, "Please enter a valid email address"],
    [{ ...valid, socialUrl: "javascript:alert(1)" }, "Please enter a valid URL"],
  ])("refuses %j with the spec's message and stores nothing", async (body, message) => {
    const before = (await t.db.select().from(guestSubmissions)).length;
    const response = await api(t.app, "POST", "/api/guest-submission", { body, headers: from() });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
    expect(await t.db.select().from(guestSubmissions)).toHaveLength(before);
  });

  it("accepts a 160-character bio and omits empty optional fields", async () => {
    const response = await api(t.app, "POST", "/api/guest-submission", {
      body: { ...valid, poemTitle: "Edge", bio: "x".repeat(160), handle: "", socialUrl: "" },
      headers: from(),
    });
    expect(response.status).toBe(201);
    const rows = await t.db.select().from(guestSubmissions);
    expect(rows.find((row) => row.poemTitle === "Edge")).toMatchObject({
      handle: null,
      socialUrl: null,
    });
  });

  it("answers a filled decoy field like any other and stores nothing", async () => {
    const before = (await t.db.select().from(guestSubmissions)).length;
    const response = await api(t.app, "POST", "/api/guest-submission", {
      body: { ...valid, fax: "555-0100" },
      headers: from(),
    });
    expect(response.status).toBe(201);
    expect(await t.db.select().from(guestSubmissions)).toHaveLength(before);
  });

  it("limits submissions per client address", async () => {
    const headers = from();
    for (let i = 0; i < 5; i++) {
      expect(
        (await api(t.app, "POST", "/api/guest-submission", { body: valid, headers })).status,
      ).toBe(201);
    }
    const limited = await api(t.app, "POST", "/api/guest-submission", { body: valid, headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });
});
