import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayInZone } from "../../common/dates.ts";
import { AUDIO_URL_MESSAGE } from "../../common/schemas/admin.ts";
import {
  echoes,
  journalEntries,
  poems,
  poemTags,
  users,
  whispers,
} from "../../server/db/schema.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, ensureTags } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("admin content on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let tagIds: number[];

  const messageOf = async (response: Response) =>
    ((await response.json()) as { message: string }).message;
  const poemBody = (fields: Record<string, unknown> = {}) => ({
    title: "Salt Letters",
    slug: "salt-letters",
    stanzas: ["  first / line  ", "", "second"],
    audioUrl: "",
    coverUrl: "/objects/images/abc-123",
    coverAlt: "",
    tagIds,
    ...fields,
  });

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
    tagIds = (await ensureTags(t.db, ["Sea", "Night"])).map((tag) => tag.id);
  });
  afterAll(() => t.close());

  it("creates, updates and deletes a poem with the spec's rules applied", async () => {
    const created = await api(t.app, "POST", "/api/admin/poems", {
      body: poemBody(),
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(created.status).toBe(201);
    const poem = await created.json();
    expect(poem).toMatchObject({
      title: "Salt Letters",
      slug: "salt-letters",
      // Leading spaces are the first line's indentation; only the end is trimmed.
      stanzas: ["  first / line", "second"],
      coverAlt: "Salt Letters",
      audioUrl: null,
    });
    expect(poem.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(["Night", "Sea"]);
    const [stored] = await t.db.select().from(poems).where(eq(poems.id, poem.id));
    expect(stored?.coverProvider).toBe("object-storage");

    const updated = await api(t.app, "PUT", `/api/admin/poems/${poem.id}`, {
      body: poemBody({
        title: "Salt Letters, Again",
        coverUrl: "https://example.com/c.jpg",
        tagIds: [tagIds[0]],
      }),
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(updated.status).toBe(200);
    expect((await updated.json()).tags).toHaveLength(1);
    const [again] = await t.db.select().from(poems).where(eq(poems.id, poem.id));
    expect(again?.coverProvider).toBe("url");
    // Readers see the change at once.
    expect((await (await t.app.request("/api/poems/salt-letters")).json()).title).toBe(
      "Salt Letters, Again",
    );

    expect(
      (
        await api(t.app, "DELETE", `/api/admin/poems/${poem.id}`, {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(204);
    expect((await t.app.request("/api/poems/salt-letters")).status).toBe(404);
    expect(
      (
        await api(t.app, "DELETE", `/api/admin/poems/${poem.id}`, {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(404);
  });

  describe("every write answers with the record it wrote, as a read shows it", () => {
    const today = () => dayInZone(t.config.siteTimezone);
    const entities = [
      {
        name: "poem",
        path: "/api/admin/poems",
        create: () => poemBody({ slug: "answered" }),
        update: () => poemBody({ slug: "answered", title: "Answered, Again", tagIds: [tagIds[0]] }),
        revised: () => ({ title: "Answered, Again", tags: [{ id: tagIds[0], name: "Sea" }] }),
        read: async (record: { id: number }) =>
          (
            (await (
              await api(t.app, "GET", "/api/admin/poems", { cookie: admin, origin: SITE_ORIGIN })
            ).json()) as { id: number }[]
          ).find((poem) => poem.id === record.id),
      },
      {
        name: "ember",
        path: "/api/admin/embers",
        create: () => ({ text: "An answered ember", date: today(), tagIds: [tagIds[1]] }),
        update: () => ({ text: "Answered again", date: today(), isFeatured: true }),
        revised: () => ({
          text: "Answered again",
          isFeatured: true,
          tags: [{ id: tagIds[1], name: "Night" }],
        }),
        read: async (record: { id: number }) =>
          (
            (await (
              await api(t.app, "GET", "/api/admin/embers", { cookie: admin, origin: SITE_ORIGIN })
            ).json()) as { id: number }[]
          ).find((ember) => ember.id === record.id),
      },
      {
        name: "book",
        path: "/api/admin/books",
        create: () => ({
          title: "Answered Book",
          slug: "answered-book",
          blurb: "A blurb.",
          coverUrl: "/objects/images/book-cover",
          buyUrl: "https://example.com/buy",
          pages: [{ title: "One", content: "First page" }],
        }),
        update: () => ({
          title: "Answered Book, Revised",
          slug: "answered-book",
          blurb: "Another blurb.",
          coverUrl: "https://example.com/cover.jpg",
          buyUrl: "https://example.com/buy",
        }),
        revised: () => ({ title: "Answered Book, Revised", pages: [] }),
        read: async (record: { slug: string }) =>
          (await t.app.request(`/api/books/${record.slug}`)).json(),
      },
      {
        name: "tag",
        path: "/api/admin/tags",
        create: () => ({ name: "Answered" }),
        update: () => ({ name: "Answered Again" }),
        revised: () => ({ name: "Answered Again" }),
        read: async (record: { id: number }) =>
          ((await (await t.app.request("/api/tags")).json()) as { id: number }[]).find(
            (tag) => tag.id === record.id,
          ),
      },
    ];

    it.each(entities)("$name: 201 on create, 200 on update, 204 on delete", async (entity) => {
      const created = await api(t.app, "POST", entity.path, {
        body: entity.create(),
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(created.status).toBe(201);
      const record = await created.json();
      expect(record.id).toEqual(expect.any(Number));
      expect(record).toEqual(await entity.read(record));

      const updated = await api(t.app, "PUT", `${entity.path}/${record.id}`, {
        body: entity.update(),
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(updated.status).toBe(200);
      const revised = await updated.json();
      expect(revised).toMatchObject(entity.revised());
      expect(revised).toEqual(await entity.read(revised));

      const deleted = await api(t.app, "DELETE", `${entity.path}/${record.id}`, {
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(deleted.status).toBe(204);
      expect(await deleted.text()).toBe("");
    });
  });

  it("refuses a third-party http: cover, which the pages' policy would block, and keeps this site's", async () => {
    for (const [path, body] of [
      ["/api/admin/poems", poemBody({ slug: "plain-http" })],
      [
        "/api/admin/books",
        {
          title: "Plain",
          slug: "plain-http",
          blurb: "b",
          coverUrl: "x",
          buyUrl: "https://example.com/buy",
        },
      ],
    ] as const) {
      const refused = await api(t.app, "POST", path, {
        body: { ...body, coverUrl: "http://example.com/c.jpg" },
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        message: "Cover images must use https",
        errors: { coverUrl: ["Cover images must use https"] },
      });
      const ownSite = await api(t.app, "POST", path, {
        body: {
          ...body,
          coverUrl: `${t.config.publicUrl.origin}/objects/images/own-cover`,
        },
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(ownSite.status).toBe(201);
      const { id } = await ownSite.json();
      expect(
        (await api(t.app, "DELETE", `${path}/${id}`, { cookie: admin, origin: SITE_ORIGIN }))
          .status,
      ).toBe(204);
    }
    // Only the accepted one was stored, and it waits in Recently deleted.
    expect(
      await t.db
        .select()
        .from(poems)
        .where(and(eq(poems.slug, "plain-http"), isNull(poems.deletedAt))),
    ).toEqual([]);
  });

  it("answers every invalid poem field with the spec's message and stores nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "  " }, "Title is required"],
      [{ slug: "" }, "Slug is required"],
      [{ slug: "Not A Slug" }, "Slug must be lowercase letters, numbers, and hyphens only"],
      [{ stanzas: [" ", ""] }, "At least one stanza is required"],
      [{ audioUrl: "not a url" }, AUDIO_URL_MESSAGE],
      [{ coverUrl: "javascript:alert(1)" }, "Must be a valid URL or object storage path"],
      [{ tagIds: [] }, "At least one tag is required"],
    ];
    for (const [fields, message] of cases) {
      const response = await api(t.app, "POST", "/api/admin/poems", {
        body: poemBody({ slug: "bad", ...fields }),
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await messageOf(response)).toBe(message);
    }
    expect(await t.db.select().from(poems).where(eq(poems.slug, "bad"))).toEqual([]);
  });

  it("takes an uploaded recording or an https: URL as audioUrl, and nothing the page would block", async () => {
    const accepted = [
      "/objects/audio/0b5e4a51-2c1d-4e8f-9a7b-3c6d5e4f1a2b",
      "https://media.example.com/readings/salt-letters.mp3",
    ];
    for (const [index, audioUrl] of accepted.entries()) {
      const response = await api(t.app, "POST", "/api/admin/poems", {
        body: poemBody({ slug: `read-aloud-${index}`, audioUrl: ` ${audioUrl} ` }),
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(response.status, audioUrl).toBe(201);
      expect((await response.json()).audioUrl).toBe(audioUrl);
    }
    for (const audioUrl of [
      "http://media.example.com/salt-letters.mp3",
      "/objects/images/0b5e4a51-2c1d-4e8f-9a7b-3c6d5e4f1a2b",
      "/objects/audio/../images/x",
      "/uploads/audio/x",
      "javascript:alert(1)",
      "data:audio/wav;base64,UklGRg==",
      "ftp://media.example.com/a.mp3",
    ]) {
      const response = await api(t.app, "POST", "/api/admin/poems", {
        body: poemBody({ slug: "refused-audio", audioUrl }),
        cookie: admin,
        origin: SITE_ORIGIN,
      });
      expect(response.status, audioUrl).toBe(400);
      const body = (await response.json()) as { errors: Record<string, string[]> };
      expect(body.errors.audioUrl, audioUrl).toEqual([AUDIO_URL_MESSAGE]);
    }
    expect(await t.db.select().from(poems).where(eq(poems.slug, "refused-audio"))).toEqual([]);
  });

  it("refuses a taken slug with 409 and an unknown poem with 404", async () => {
    await createPoem(t.db, { slug: "taken", tagNames: ["Sea"] });
    const duplicate = await api(t.app, "POST", "/api/admin/poems", {
      body: poemBody({ slug: "taken" }),
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(duplicate.status).toBe(409);
    expect(await messageOf(duplicate)).toBe("A poem with this slug already exists");
    expect(
      (
        await api(t.app, "PUT", "/api/admin/poems/999999", {
          body: poemBody(),
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api(t.app, "PUT", "/api/admin/poems/abc", {
          body: poemBody(),
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(400);
  });

  it("keeps a deleted poem's tag links, echoes, whispers and journal entries until it is purged, and then removes them with it, and nothing else", async () => {
    const doomed = await createPoem(t.db, { slug: "doomed", tagNames: ["Sea"] });
    const kept = await createPoem(t.db, { slug: "kept", tagNames: ["Sea"] });
    const [user] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, "reader@example.com"));
    const userId = user?.id ?? "";
    for (const poem of [doomed, kept]) {
      await t.db.insert(echoes).values({ poemId: poem.id, stanzaIndex: "0", userId });
      await t.db.insert(whispers).values({ poemId: poem.id, stanzaIndex: "0", userId, text: "hi" });
      await t.db.insert(journalEntries).values({ poemId: poem.id, stanzaIndex: "0", userId });
    }
    expect(
      (
        await api(t.app, "DELETE", `/api/admin/poems/${doomed.id}`, {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(204);
    for (const table of [echoes, whispers, journalEntries, poemTags]) {
      expect(await t.db.select().from(table).where(eq(table.poemId, doomed.id))).toHaveLength(1);
    }
    // Deleted 31 days ago: the upkeep purges it.
    await t.db
      .update(poems)
      .set({ deletedAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) })
      .where(eq(poems.id, doomed.id));
    await t.services.databaseUpkeep.run();
    for (const table of [echoes, whispers, journalEntries, poemTags]) {
      expect(await t.db.select().from(table).where(eq(table.poemId, doomed.id))).toEqual([]);
      expect(await t.db.select().from(table).where(eq(table.poemId, kept.id))).toHaveLength(1);
    }
  });

  it("schedules embers: one per day, featured on request, listed from today with future days", async () => {
    const today = dayInZone(t.config.siteTimezone);
    const tomorrow = addDays(today, 1);
    const created = await api(t.app, "POST", "/api/admin/embers", {
      body: {
        text: "Tomorrow's ember",
        date: tomorrow,
        tagIds: [tagIds[1]],
        isFeatured: true,
      },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const clash = await api(t.app, "POST", "/api/admin/embers", {
      body: { text: "Again", date: tomorrow },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(clash.status).toBe(409);
    expect(await messageOf(clash)).toBe("An ember is already scheduled for that date");
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/embers", {
          body: { text: "", date: tomorrow },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Text is required");
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/embers", {
          body: { text: "x", date: "" },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Date is required");
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/embers", {
          body: { text: "x", date: "someday" },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Invalid date format");

    const schedule = await (
      await api(t.app, "GET", "/api/admin/embers?limit=30", { cookie: admin, origin: SITE_ORIGIN })
    ).json();
    expect(schedule).toEqual([
      expect.objectContaining({ id, text: "Tomorrow's ember", isFeatured: true }),
    ]);
    expect(schedule[0].tags).toEqual([{ id: tagIds[1], name: "Night" }]);
    // Readers do not see tomorrow's ember yet.
    const published = await (await t.app.request("/api/embers")).json();
    expect(published.map((ember: { id: number }) => ember.id)).not.toContain(id);

    // The spec's payload is {text, date}: the tags and the feature stay as they were.
    const edited = await api(t.app, "PUT", `/api/admin/embers/${id}`, {
      body: { text: "Edited", date: tomorrow },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(edited.status).toBe(200);
    const [row] = await (
      await api(t.app, "GET", "/api/admin/embers", { cookie: admin, origin: SITE_ORIGIN })
    ).json();
    expect(row).toMatchObject({ text: "Edited", isFeatured: true });
    expect(row.tags).toHaveLength(1);
    await api(t.app, "PUT", `/api/admin/embers/${id}`, {
      body: {
        text: "Edited",
        date: tomorrow,
        isFeatured: false,
        tagIds: [],
      },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    const [unfeatured] = await (
      await api(t.app, "GET", "/api/admin/embers", { cookie: admin, origin: SITE_ORIGIN })
    ).json();
    expect(unfeatured).toMatchObject({ isFeatured: false, featuredAt: null, tags: [] });
    expect(
      (
        await api(t.app, "DELETE", `/api/admin/embers/${id}`, {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(204);
  });

  it("creates, updates and deletes books with pages, and refuses bad fields", async () => {
    const book = {
      title: "Harbour Hours",
      slug: "harbour-hours",
      blurb: "Poems of waiting.",
      coverUrl: "https://example.com/cover.jpg",
      buyUrl: "https://example.com/buy",
      pages: [{ title: "Opening", content: "The tide..." }],
    };
    const created = await api(t.app, "POST", "/api/admin/books", {
      body: book,
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect(
      (
        await api(t.app, "POST", "/api/admin/books", {
          body: book,
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(409);
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/books", {
          body: { ...book, slug: "x", blurb: "" },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Blurb is required");
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/books", {
          body: { ...book, slug: "y", buyUrl: "nope" },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Must be a valid URL");
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/books", {
          body: {
            ...book,
            slug: "z",
            pages: [{ title: "", content: "c" }],
          },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Page title is required");
    const updated = await api(t.app, "PUT", `/api/admin/books/${id}`, {
      body: {
        ...book,
        title: "Harbour Hours II",
      },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(updated.status).toBe(200);
    expect((await (await t.app.request("/api/books/harbour-hours")).json()).title).toBe(
      "Harbour Hours II",
    );
    expect(
      (await api(t.app, "DELETE", `/api/admin/books/${id}`, { cookie: admin, origin: SITE_ORIGIN }))
        .status,
    ).toBe(204);
    expect((await t.app.request("/api/books/harbour-hours")).status).toBe(404);
  });

  it("creates and renames tags, refusing names taken in any case", async () => {
    const created = await api(t.app, "POST", "/api/admin/tags", {
      body: { name: "  Dawn  " },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(created.status).toBe(201);
    const tag = await created.json();
    expect(tag.name).toBe("Dawn");
    const duplicate = await api(t.app, "POST", "/api/admin/tags", {
      body: { name: "dawn" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(duplicate.status).toBe(409);
    expect(await messageOf(duplicate)).toBe("A tag with this name already exists");
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/tags", {
          body: { name: "" },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Tag name is required");
    expect(
      await messageOf(
        await api(t.app, "POST", "/api/admin/tags", {
          body: { name: "x".repeat(51) },
          cookie: admin,
          origin: SITE_ORIGIN,
        }),
      ),
    ).toBe("Tag name must be 50 characters or less");
    const renamed = await api(t.app, "PUT", `/api/admin/tags/${tag.id}`, {
      body: { name: "Daybreak" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(await renamed.json()).toEqual({ id: tag.id, name: "Daybreak" });
    expect(
      (
        await api(t.app, "DELETE", `/api/admin/tags/${tag.id}`, {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(204);
  });

  it("hides a whisper from readers at once and brings it back on approval", async () => {
    const poem = await createPoem(t.db, { slug: "moderated", tagNames: ["Sea"] });
    const posted = await api(t.app, "POST", "/api/poems/moderated/whispers", {
      body: { stanzaIndex: 0, body: "A thought" },
      cookie: reader,
      origin: SITE_ORIGIN,
    });
    expect(posted.status).toBe(201);
    const { id } = await posted.json();
    const readerList = async () =>
      (await (await t.app.request("/api/poems/moderated/whispers/0")).json()) as { id: number }[];
    expect((await readerList()).map((whisper) => whisper.id)).toContain(id);

    const listed = await (
      await api(t.app, "GET", "/api/admin/whispers", { cookie: admin, origin: SITE_ORIGIN })
    ).json();
    expect(listed).toContainEqual(
      expect.objectContaining({
        id,
        text: "A thought",
        isApproved: true,
        poemSlug: poem.slug,
        stanzaIndex: 0,
      }),
    );
    expect(
      (
        await api(t.app, "POST", `/api/admin/whispers/${id}/hide`, {
          body: {},
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(200);
    expect((await readerList()).map((whisper) => whisper.id)).not.toContain(id);
    expect(
      (
        await api(t.app, "POST", `/api/admin/whispers/${id}/approve`, {
          body: {},
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(200);
    expect((await readerList()).map((whisper) => whisper.id)).toContain(id);
    expect(
      (
        await api(t.app, "POST", "/api/admin/whispers/999999/hide", {
          body: {},
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(404);
  });

  it("lists guest submissions newest first, marks them reviewed and deletes them", async () => {
    for (const poemTitle of ["First Light", "Second <b>Light</b>"]) {
      const sent = await api(t.app, "POST", "/api/guest-submission", {
        body: { name: "Ada", email: "ada@example.com", poemTitle, poemText: "line one\nline two" },
        origin: SITE_ORIGIN,
      });
      expect(sent.status).toBe(201);
    }
    const listed = await (
      await api(t.app, "GET", "/api/admin/submissions", { cookie: admin, origin: SITE_ORIGIN })
    ).json();
    expect(listed.map((item: { poemTitle: string }) => item.poemTitle)).toEqual([
      "Second <b>Light</b>",
      "First Light",
    ]);
    const [newest] = listed;
    expect(newest).toMatchObject({ name: "Ada", email: "ada@example.com", reviewedAt: null });
    expect(
      (
        await api(t.app, "POST", `/api/admin/submissions/${newest.id}/review`, {
          body: {},
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(200);
    const [reviewed] = await (
      await api(t.app, "GET", "/api/admin/submissions", { cookie: admin, origin: SITE_ORIGIN })
    ).json();
    expect(reviewed.reviewedAt).not.toBeNull();
    expect(
      (
        await api(t.app, "DELETE", `/api/admin/submissions/${newest.id}`, {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(204);
    expect(
      await (
        await api(t.app, "GET", "/api/admin/submissions", { cookie: admin, origin: SITE_ORIGIN })
      ).json(),
    ).toHaveLength(1);
    expect(
      (
        await api(t.app, "DELETE", `/api/admin/submissions/${newest.id}`, {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(404);
    expect(
      (await api(t.app, "GET", "/api/admin/submissions", { cookie: reader, origin: SITE_ORIGIN }))
        .status,
    ).toBe(403);
  });

  it("refuses every admin call without a session (401) and for a reader (403)", async () => {
    const calls: [string, string][] = [
      ["POST", "/api/admin/poems"],
      ["PUT", "/api/admin/poems/1"],
      ["DELETE", "/api/admin/poems/1"],
      ["GET", "/api/admin/embers"],
      ["POST", "/api/admin/embers"],
      ["POST", "/api/admin/books"],
      ["DELETE", "/api/admin/books/1"],
      ["POST", "/api/admin/tags"],
      ["PUT", "/api/admin/tags/1"],
      ["GET", "/api/admin/whispers"],
      ["POST", "/api/admin/whispers/1/hide"],
    ];
    for (const [method, path] of calls) {
      const body = method === "GET" ? undefined : {};
      expect(
        (await api(t.app, method, path, { body, cookie: "", origin: SITE_ORIGIN })).status,
        `${method} ${path}`,
      ).toBe(401);
      expect(
        (await api(t.app, method, path, { body, cookie: reader, origin: SITE_ORIGIN })).status,
        `${method} ${path}`,
      ).toBe(403);
    }
  });
});
