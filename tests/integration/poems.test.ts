import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayInZone } from "../../common/dates.ts";
import { createPoemService } from "../../server/content/poems.ts";
import { openDatabase } from "../../server/db/client.ts";
import { createLogger } from "../../server/logger.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createPoem, ensureTags } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("reading API on %s", (driver) => {
  let t: TestApp;
  const today = dayInZone("UTC");

  beforeAll(async () => {
    t = await createTestApp(driver);
    await ensureTags(t.db, ["Becoming", "Belonging", "Late Autumn", "Empty"]);
    await createPoem(t.db, {
      title: "Older",
      slug: "older",
      tagNames: ["Belonging"],
      createdAt: new Date("2026-01-01T00:00:00Z"),
    });
    await createPoem(t.db, {
      title: "Newer",
      slug: "newer",
      stanzas: ["one / two / three", "four / five"],
      tagNames: ["Becoming", "Belonging", "Late Autumn"],
      coverUrl: "/objects/images/abc",
      coverAlt: "A cover",
      createdAt: new Date("2026-02-01T00:00:00Z"),
    });
    await createEmber(t.db, {
      day: today,
      text: "Today's ember",
      tagNames: ["Becoming"],
      isFeatured: true,
    });
    await createEmber(t.db, {
      day: addDays(today, 1),
      text: "Tomorrow's ember",
      tagNames: ["Becoming"],
    });
  });
  afterAll(() => t.close());

  it("lists poems newest first with their tags", async () => {
    const response = await t.app.request("/api/poems");
    expect(response.status).toBe(200);
    const poems = await response.json();
    expect(poems.map((poem: { slug: string }) => poem.slug)).toEqual(["newer", "older"]);
    expect(poems[0]).toMatchObject({
      title: "Newer",
      slug: "newer",
      stanzas: ["one / two / three", "four / five"],
      coverUrl: "/objects/images/abc",
      coverAlt: "A cover",
    });
    expect(poems[0].tags).toEqual([
      { id: expect.any(Number), name: "Becoming" },
      { id: expect.any(Number), name: "Belonging" },
      { id: expect.any(Number), name: "Late Autumn" },
    ]);
  });

  it("filters by tag name, case-insensitively", async () => {
    const response = await t.app.request("/api/poems?tag=becoming");
    expect((await response.json()).map((poem: { slug: string }) => poem.slug)).toEqual(["newer"]);
  });

  it.each(["Nothing", "O'Brien\"; drop table poems; --", "%", "'"])(
    "answers a tag naming no tag (%j) with an empty list",
    async (tag) => {
      const response = await t.app.request(`/api/poems?tag=${encodeURIComponent(tag)}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
    },
  );

  it("reads one poem by slug, and 404s an unknown one", async () => {
    const found = await t.app.request("/api/poems/newer");
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({
      id: expect.any(Number),
      title: "Newer",
      tags: expect.any(Array),
    });
    for (const slug of ["missing", "x'; drop table poems; --", "%27"]) {
      const missing = await t.app.request(`/api/poems/${encodeURIComponent(slug)}`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ message: "Poem not found" });
    }
  });

  it("lists tags by name", async () => {
    const tags = await (await t.app.request("/api/tags")).json();
    expect(tags.map((tag: { name: string }) => tag.name)).toEqual([
      "Becoming",
      "Belonging",
      "Empty",
      "Late Autumn",
    ]);
    expect(tags[0]).toEqual({ id: expect.any(Number), name: "Becoming" });
  });

  it("serves a theme with its poems and only published embers", async () => {
    const response = await t.app.request("/api/themes/becoming");
    expect(response.status).toBe(200);
    const theme = await response.json();
    expect(theme.tag).toEqual({ id: expect.any(Number), name: "Becoming" });
    expect(theme.poems.map((poem: { slug: string }) => poem.slug)).toEqual(["newer"]);
    expect(theme.embers.map((ember: { text: string }) => ember.text)).toEqual(["Today's ember"]);
    expect(theme.embers[0]).toMatchObject({
      isFeatured: true,
      tags: [{ id: expect.any(Number), name: "Becoming" }],
    });
  });

  it("finds a theme by its hyphenated slug, answers an empty one, and 404s an unknown one", async () => {
    const spaced = await (await t.app.request("/api/themes/late-autumn")).json();
    expect(spaced.tag.name).toBe("Late Autumn");
    const empty = await (await t.app.request("/api/themes/empty")).json();
    expect(empty).toMatchObject({ poems: [], embers: [] });
    const unknown = await t.app.request("/api/themes/no-such-theme");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Theme not found" });
  });
});

describe("listing poems with their tags", () => {
  it("takes the same number of queries for 3 poems as for 40 (no N+1)", async () => {
    const statements: string[] = [];
    const handle = await openDatabase({
      kind: "pglite-memory",
      onQuery: (sql) => statements.push(sql),
    });
    await handle.migrate();
    const t = await createTestApp("pglite");
    const poems = createPoemService({
      db: handle.db,
      config: t.config,
      logger: createLogger("silent"),
      now: () => new Date(),
      ownsDatabase: true,
    });
    const count = async () => {
      statements.length = 0;
      await poems.listPoems();
      await poems.listPoems({ tag: "Becoming" });
      return statements.length;
    };
    for (let i = 0; i < 3; i++) await createPoem(handle.db, { tagNames: ["Becoming", "Memory"] });
    const few = await count();
    for (let i = 0; i < 37; i++) await createPoem(handle.db, { tagNames: ["Becoming", "Sacred"] });
    const many = await count();
    expect(many).toBe(few);
    expect(few).toBe(4);
    await handle.close();
    await t.close();
  });
});
