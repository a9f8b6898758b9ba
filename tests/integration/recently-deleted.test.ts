import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  books,
  echoes,
  journalEntries,
  poems,
  poemVersions,
  whispers,
} from "../../server/db/schema.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { ensureTags } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const SLUG = "ash-letters";
const BOOK_SLUG = "ash-and-tide";

/**
 * A deleted poem or book is kept, hidden from everyone, in Recently deleted for 30 days: Undo
 * and restore bring it back whole, its slug stays taken, and the upkeep purges it afterwards.
 */
describe.each(drivers)("recently deleted poems and books on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let poemId: number;
  let bookId: number;
  let tagIds: number[];
  /** The services' clock, moved by the tests; the app starts at the real time. */
  let clock = new Date();

  const call = (method: string, path: string, body?: unknown, cookie = admin) =>
    api(t.app, method, path, { body, cookie, origin: SITE_ORIGIN });
  const json = async <T>(response: Response | Promise<Response>) =>
    (await (await response).json()) as T;

  /** What the poem holds in the database: its readers' words and its versions. */
  async function heldWith(id: number) {
    const count = async (table: typeof echoes | typeof whispers | typeof journalEntries) =>
      (await t.db.select().from(table).where(eq(table.poemId, id))).length;
    return {
      echoes: await count(echoes),
      whispers: await count(whispers),
      journalEntries: await count(journalEntries),
      versions: (await t.db.select().from(poemVersions).where(eq(poemVersions.poemId, id))).length,
    };
  }

  /** What a reader is shown of the poem through the API. */
  async function readerView() {
    const echoCounts = await json<{ count: number }[]>(call("GET", `/api/poems/${SLUG}/echos`));
    return {
      echoes: echoCounts.reduce((sum, row) => sum + row.count, 0),
      whispers: (
        await json<unknown[]>(call("GET", `/api/poems/${SLUG}/whispers/0`, undefined, reader))
      ).length,
      saved: await json<string[]>(call("GET", `/api/poems/${SLUG}/journal`, undefined, reader)),
      journal: (await json<unknown[]>(call("GET", "/api/journal", undefined, reader))).length,
    };
  }

  beforeAll(async () => {
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, {
      pageHandler,
      now: () => clock,
      env: { RATE_LIMIT_SCALE: "100" },
    });
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
  }, 120_000);
  afterAll(() => t.close());

  beforeEach(async () => {
    clock = new Date();
    await t.db.delete(poems);
    await t.db.delete(books);
    tagIds = (await ensureTags(t.db, ["Ash"])).map((tag) => tag.id);
    const created = await call("POST", "/api/admin/poems", {
      title: "Ash Letters",
      slug: SLUG,
      stanzas: ["The grate keeps / what the fire forgot", "We read them / by their own light"],
      tagIds,
    });
    expect(created.status).toBe(201);
    poemId = (await json<{ id: number }>(created)).id;
    // A revision, so the poem has a version to keep.
    await call("PUT", `/api/admin/poems/${poemId}`, {
      title: "Ash Letters",
      slug: SLUG,
      stanzas: ["The grate keeps / what the fire forgot", "We read them / by their last light"],
      tagIds,
    });
    await call("POST", `/api/poems/${SLUG}/echo`, { stanzaIndex: 0 }, reader);
    await call("POST", `/api/poems/${SLUG}/whispers`, { stanzaIndex: 0, body: "warm" }, reader);
    await call("POST", "/api/journal", { poemSlug: SLUG, stanzaIndex: 0 }, reader);
    const book = await call("POST", "/api/admin/books", {
      title: "Ash and Tide",
      slug: BOOK_SLUG,
      blurb: "Poems of the shore",
      coverUrl: "/objects/images/cover",
      buyUrl: "https://example.com/buy",
      pages: [{ title: "One", content: "A page" }],
    });
    expect(book.status).toBe(201);
    bookId = (await json<{ id: number }>(book)).id;
  });

  it("hides a deleted poem from everyone, everywhere, and keeps all it holds", async () => {
    const before = await heldWith(poemId);
    expect(before).toEqual({ echoes: 1, whispers: 1, journalEntries: 1, versions: 1 });

    const deleted = await call("DELETE", `/api/admin/poems/${poemId}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");

    for (const path of [
      `/api/poems/${SLUG}`,
      `/api/poems/${SLUG}/echos`,
      `/api/poems/${SLUG}/whispers/0`,
      `/poetry/${SLUG}`,
      `/share/poem/${SLUG}?s=0`,
      `/og/stanza/${SLUG}/0.png`,
    ]) {
      for (const cookie of [undefined, reader, admin]) {
        const response = await api(t.app, "GET", path, { cookie });
        expect(response.status, `${path} ${cookie === admin ? "admin" : "other"}`).toBe(404);
      }
    }
    for (const path of ["/api/poems", "/api/themes/ash", "/feed.xml", "/sitemap.xml"]) {
      expect(await (await call("GET", path)).text(), path).not.toContain(SLUG);
    }
    expect(await (await call("GET", "/api/search?q=grate")).text()).not.toContain(SLUG);
    expect(await readerViewAfterDelete()).toEqual({ journal: 0, echo: 404, saved: 404 });
    expect(await (await call("GET", "/api/admin/poems")).text()).not.toContain(SLUG);
    expect(await (await call("GET", "/api/admin/whispers")).text()).not.toContain("warm");
    // An edit or a version of a deleted poem is a 404 too.
    expect((await call("GET", `/api/admin/poems/${poemId}/versions`)).status).toBe(404);

    const listed = await json<{ id: number; slug: string; deletedAt: string; purgeAt: string }[]>(
      call("GET", "/api/admin/poems/deleted"),
    );
    expect(listed).toEqual([
      {
        id: poemId,
        title: "Ash Letters",
        slug: SLUG,
        deletedAt: clock.toISOString(),
        purgeAt: new Date(clock.getTime() + 30 * DAY_MS).toISOString(),
      },
    ]);
    expect(await heldWith(poemId)).toEqual(before);
  });

  async function readerViewAfterDelete() {
    return {
      journal: (await json<unknown[]>(call("GET", "/api/journal", undefined, reader))).length,
      echo: (await call("POST", `/api/poems/${SLUG}/echo`, { stanzaIndex: 1 }, reader)).status,
      saved: (await call("GET", `/api/poems/${SLUG}/journal`, undefined, reader)).status,
    };
  }

  it("restores a deleted poem whole: its page, echoes, whispers, saved stanzas and versions", async () => {
    const shown = await readerView();
    expect(shown).toEqual({ echoes: 1, whispers: 1, saved: ["0"], journal: 1 });
    await call("DELETE", `/api/admin/poems/${poemId}`);
    clock = new Date(clock.getTime() + 29 * DAY_MS);

    const restored = await call("POST", `/api/admin/poems/${poemId}/restore`, {});
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual({ message: "Poem restored successfully" });

    expect((await call("GET", `/api/poems/${SLUG}`, undefined, undefined)).status).toBe(200);
    expect((await call("GET", `/poetry/${SLUG}`, undefined, undefined)).status).toBe(200);
    expect(await readerView()).toEqual(shown);
    expect(await heldWith(poemId)).toEqual({
      echoes: 1,
      whispers: 1,
      journalEntries: 1,
      versions: 1,
    });
    expect(await json<unknown[]>(call("GET", `/api/admin/poems/${poemId}/versions`))).toHaveLength(
      1,
    );
    expect(await (await call("GET", "/api/admin/poems")).text()).toContain(SLUG);
    expect(await json<unknown[]>(call("GET", "/api/admin/poems/deleted"))).toEqual([]);
  });

  it("answers a second Undo with a clear message and changes nothing", async () => {
    await call("DELETE", `/api/admin/poems/${poemId}`);
    expect((await call("POST", `/api/admin/poems/${poemId}/restore`, {})).status).toBe(200);
    const [row] = await t.db.select().from(poems).where(eq(poems.id, poemId));

    const again = await call("POST", `/api/admin/poems/${poemId}/restore`, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: "This poem was already restored" });
    expect(await t.db.select().from(poems).where(eq(poems.id, poemId))).toEqual([row]);

    // A second delete of a deleted poem is a 404, as for any unknown poem.
    await call("DELETE", `/api/admin/poems/${poemId}`);
    expect((await call("DELETE", `/api/admin/poems/${poemId}`)).status).toBe(404);
  });

  it("keeps a deleted poem's and book's slugs taken", async () => {
    await call("DELETE", `/api/admin/poems/${poemId}`);
    await call("DELETE", `/api/admin/books/${bookId}`);
    const poem = await call("POST", "/api/admin/poems", {
      title: "Another",
      slug: SLUG,
      stanzas: ["a / b"],
      tagIds,
    });
    expect(poem.status).toBe(409);
    expect(await poem.json()).toMatchObject({ message: "A poem with this slug already exists" });
    const book = await call("POST", "/api/admin/books", {
      title: "Another",
      slug: BOOK_SLUG,
      blurb: "b",
      coverUrl: "/objects/images/cover",
      buyUrl: "https://example.com/buy",
      pages: [],
    });
    expect(book.status).toBe(409);
    expect(await book.json()).toMatchObject({ message: "A book with this slug already exists" });
  });

  it("purges after 30 days, with everything the poem held, and then refuses a restore", async () => {
    await call("DELETE", `/api/admin/poems/${poemId}`);
    await call("DELETE", `/api/admin/books/${bookId}`);

    clock = new Date(clock.getTime() + 30 * DAY_MS - 60_000);
    expect((await t.services.databaseUpkeep.run()).purgedContent).toBe(0);
    expect(await json<unknown[]>(call("GET", "/api/admin/poems/deleted"))).toHaveLength(1);

    clock = new Date(clock.getTime() + 2 * 60_000);
    // Past its 30 days it is gone from the list and past restoring, even before the upkeep runs.
    expect(await json<unknown[]>(call("GET", "/api/admin/poems/deleted"))).toEqual([]);
    const late = await call("POST", `/api/admin/poems/${poemId}/restore`, {});
    expect(late.status).toBe(404);
    expect((await t.services.databaseUpkeep.run()).purgedContent).toBe(2);

    expect(await t.db.select().from(poems).where(eq(poems.id, poemId))).toEqual([]);
    expect(await t.db.select().from(books).where(eq(books.id, bookId))).toEqual([]);
    expect(await heldWith(poemId)).toEqual({
      echoes: 0,
      whispers: 0,
      journalEntries: 0,
      versions: 0,
    });
    const purged = await call("POST", `/api/admin/poems/${poemId}/restore`, {});
    expect(purged.status).toBe(404);
    expect(await purged.json()).toMatchObject({
      message: "This poem is no longer in Recently deleted: deleted poems are kept for 30 days",
    });
    // Once purged, the slug is free again.
    const again = await call("POST", "/api/admin/poems", {
      title: "Ash Letters",
      slug: SLUG,
      stanzas: ["new / words"],
      tagIds,
    });
    expect(again.status).toBe(201);
  });

  it("deletes and restores a book the same way", async () => {
    expect((await call("DELETE", `/api/admin/books/${bookId}`)).status).toBe(204);
    expect((await call("GET", `/api/books/${BOOK_SLUG}`)).status).toBe(404);
    expect(await (await call("GET", "/api/books")).text()).not.toContain(BOOK_SLUG);
    expect((await call("GET", `/books/${BOOK_SLUG}/preview`)).status).toBe(404);
    expect(
      (
        await call("PUT", `/api/admin/books/${bookId}`, {
          title: "Edited",
          slug: BOOK_SLUG,
          blurb: "b",
          coverUrl: "/objects/images/cover",
          buyUrl: "https://example.com/buy",
          pages: [],
        })
      ).status,
    ).toBe(404);
    expect(
      (await json<{ slug: string }[]>(call("GET", "/api/admin/books/deleted"))).map(
        (book) => book.slug,
      ),
    ).toEqual([BOOK_SLUG]);

    expect((await call("POST", `/api/admin/books/${bookId}/restore`, {})).status).toBe(200);
    expect(await json<{ pages: unknown[] }>(call("GET", `/api/books/${BOOK_SLUG}`))).toMatchObject({
      pages: [{ title: "One", content: "A page" }],
    });
    const again = await call("POST", `/api/admin/books/${bookId}/restore`, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: "This book was already restored" });
    expect((await call("POST", "/api/admin/books/999999/restore", {})).status).toBe(404);
  });

  it("lets only the admin see and use Recently deleted", async () => {
    await call("DELETE", `/api/admin/poems/${poemId}`);
    expect((await call("GET", "/api/admin/poems/deleted", undefined, reader)).status).toBe(403);
    expect((await call("POST", `/api/admin/poems/${poemId}/restore`, {}, reader)).status).toBe(403);
    expect((await api(t.app, "GET", "/api/admin/books/deleted")).status).toBe(401);
    expect(await json<unknown[]>(call("GET", "/api/admin/poems/deleted"))).toHaveLength(1);
  });
});
