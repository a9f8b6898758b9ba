import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { echoes, journalEntries, whispers } from "../../server/db/schema.ts";
import { SHARED_ECHO_COUNTS_LIFE_MS } from "../../server/interactions/interactions.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("reader interactions on %s", (driver) => {
  let t: TestApp;
  let ada: string;
  let ben: string;
  /** While set, every statement the app sends. */
  let statements: string[] | undefined;

  beforeAll(async () => {
    // On PostgreSQL each of the concurrent toggles below gets a connection of its own.
    t = await createTestApp(driver, {
      poolSize: 32,
      onQuery: (statement) => statements?.push(statement),
    });
    await createPoem(t.db, {
      slug: "river",
      title: "River",
      stanzas: ["one / two", "three / four", "five / six"],
    });
    ada = await signIn(t, "ada@example.com");
    ben = await signIn(t, "ben@example.com");
  });
  afterAll(() => t.close());

  it("asks the database only what memory cannot answer: an echo or a whisper is its write alone where one instance owns the database", async () => {
    await createPoem(t.db, { slug: "brook", stanzas: ["one", "two"] });
    const echo = () =>
      api(t.app, "POST", "/api/poems/brook/echo", { body: { stanzaIndex: 1 }, cookie: ada });
    const whisper = () =>
      api(t.app, "POST", "/api/poems/brook/whispers", {
        body: { stanzaIndex: 0, body: "Still water." },
        cookie: ada,
      });
    expect((await echo()).status).toBe(200);
    const sent = async (write: () => Promise<Response>) => {
      statements = [];
      expect((await write()).status).toBeLessThan(300);
      const kinds = statements.map((statement) =>
        /"sessions"/.test(statement)
          ? "session"
          : /"rate_limits"/.test(statement)
            ? "rate limit"
            : /"poems"/.test(statement)
              ? "poem"
              : "write",
      );
      statements = undefined;
      return kinds;
    };
    // On PostgreSQL another instance may have ended the session or counted the reader's last
    // writes: the session is confirmed, the count taken, in a statement each (decision 025).
    const expected = driver === "pglite" ? ["write"] : ["session", "rate limit", "write"];
    expect(await sent(echo)).toEqual(expected);
    expect(await sent(whisper)).toEqual(expected);
    // The echo was toggled on and off again; the whisper goes too, for the tests that count.
    await t.db.delete(whispers);
  });

  describe("echoes", () => {
    it("needs sign-in", async () => {
      const response = await api(t.app, "POST", "/api/poems/river/echo", {
        body: { stanzaIndex: 0 },
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toContain("Unauthorized");
    });

    it("toggles on and at once off again: a second toggle is always a change of mind", async () => {
      const toggle = (stanzaIndex: number | string) =>
        api(t.app, "POST", "/api/poems/river/echo", { body: { stanzaIndex }, cookie: ada });
      expect(await (await toggle(1)).json()).toEqual({ added: true });
      expect(await t.db.select().from(echoes)).toHaveLength(1);
      expect(await (await toggle("1")).json()).toEqual({ added: false });
      expect(await t.db.select().from(echoes)).toHaveLength(0);
      expect(await (await toggle(1)).json()).toEqual({ added: true });
      expect(await (await toggle(1)).json()).toEqual({ added: false });
      expect(await t.db.select().from(echoes)).toHaveLength(0);
    });

    it("stores as many echoes as toggles answered added, less those answered removed, after 30 at once", async () => {
      const cara = await signIn(t, "cara@example.com");
      const responses = await Promise.all(
        Array.from({ length: 30 }, () =>
          api(t.app, "POST", "/api/poems/river/echo", { body: { stanzaIndex: 2 }, cookie: cara }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));
      const answers = await Promise.all(
        responses.map(async (response) => ((await response.json()) as { added: boolean }).added),
      );
      const added = answers.filter(Boolean).length;
      const stored = await t.db.select().from(echoes).where(eq(echoes.stanzaIndex, "2"));
      expect(stored.length).toBe(added - (answers.length - added));
      expect(stored.length === 0 || stored.length === 1).toBe(true);
      // Each later toggle answers what it did to the stored state; Cara's echo stays, for below.
      const toggle = () =>
        api(t.app, "POST", "/api/poems/river/echo", { body: { stanzaIndex: 2 }, cookie: cara });
      if (stored.length === 1) expect(await (await toggle()).json()).toEqual({ added: false });
      expect(await (await toggle()).json()).toEqual({ added: true });
    });

    it("echoes the whole poem without a stanza index, and counts per stanza for each reader", async () => {
      await api(t.app, "POST", "/api/poems/river/echo", { body: {}, cookie: ada });
      await api(t.app, "POST", "/api/poems/river/echo", { body: { stanzaIndex: 2 }, cookie: ada });
      const forAda = await (
        await t.app.request("/api/poems/river/echos", { headers: { Cookie: ada } })
      ).json();
      expect(forAda).toEqual([
        { stanzaIndex: "", count: 1, userHasEchoed: true },
        { stanzaIndex: "2", count: 2, userHasEchoed: true },
      ]);
      const anonymous = await (await t.app.request("/api/poems/river/echos")).json();
      expect(anonymous).toEqual([
        { stanzaIndex: "", count: 1, userHasEchoed: false },
        { stanzaIndex: "2", count: 2, userHasEchoed: false },
      ]);
    });

    it("lets readers share a reading of the counts for a second, and shows an echo at once", async () => {
      const lake = await createPoem(t.db, { slug: "lake", title: "Lake", stanzas: ["one", "two"] });
      const anonymousCount = async () => {
        const counts = await (await t.app.request("/api/poems/lake/echos")).json();
        return counts.find((row: { stanzaIndex: string }) => row.stanzaIndex === "1")?.count ?? 0;
      };
      const now = performance.now();
      const clock = vi.spyOn(performance, "now").mockReturnValue(now);
      try {
        expect(await anonymousCount()).toBe(0);
        // Written behind the service's back (as another instance would): shared for up to a second.
        await t.db
          .insert(echoes)
          .values({ poemId: lake.id, stanzaIndex: "1", sessionId: "elsewhere" });
        expect(await anonymousCount()).toBe(0);
        const signedIn = await (
          await t.app.request("/api/poems/lake/echos", { headers: { Cookie: ben } })
        ).json();
        // Where instances share the database, a signed-in reader's counts are read with their
        // own echoes; where one instance owns it, nobody writes behind its back, and signed-in
        // readers share the reading too (decision 025).
        expect(signedIn).toEqual(
          driver === "postgres" ? [{ stanzaIndex: "1", count: 1, userHasEchoed: false }] : [],
        );
        clock.mockReturnValue(now + SHARED_ECHO_COUNTS_LIFE_MS);
        expect(await anonymousCount()).toBe(1);
        // An echo through this instance shows at once.
        await api(t.app, "POST", "/api/poems/lake/echo", { body: { stanzaIndex: 1 }, cookie: ben });
        expect(await anonymousCount()).toBe(2);
        // Content changes (here the poem is deleted) are seen at once too.
        const admin = await signIn(t, "poet@example.com", { admin: true });
        const deleted = await t.app.request(`/api/admin/poems/${lake.id}`, {
          method: "DELETE",
          headers: { Cookie: admin },
        });
        expect(deleted.status).toBe(204);
        expect((await t.app.request("/api/poems/lake/echos")).status).toBe(404);
      } finally {
        clock.mockRestore();
      }
    });

    it.each([
      [{ stanzaIndex: 3 }],
      [{ stanzaIndex: -1 }],
      [{ stanzaIndex: "two" }],
      [{ stanzaIndex: 1.5 }],
    ])("refuses %j with 400 and stores nothing", async (body) => {
      const before = (await t.db.select().from(echoes)).length;
      const response = await api(t.app, "POST", "/api/poems/river/echo", { body, cookie: ada });
      expect(response.status).toBe(400);
      expect(await t.db.select().from(echoes)).toHaveLength(before);
    });

    it("answers 404 for an unknown poem", async () => {
      expect(
        (
          await api(t.app, "POST", "/api/poems/nope/echo", {
            body: { stanzaIndex: 0 },
            cookie: ada,
          })
        ).status,
      ).toBe(404);
      expect((await t.app.request("/api/poems/nope/echos")).status).toBe(404);
    });
  });

  describe("whispers", () => {
    it.each([
      ["", "Whisper cannot be empty"],
      ["    ", "Whisper cannot be empty"],
      ["x".repeat(281), "Whisper must be 280 characters or less"],
      [`${"é".repeat(281)}`, "Whisper must be 280 characters or less"],
    ])("refuses %j with 400 and stores nothing", async (body, message) => {
      const response = await api(t.app, "POST", "/api/poems/river/whispers", {
        body: { stanzaIndex: 0, body },
        cookie: ada,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
      expect(await t.db.select().from(whispers)).toHaveLength(0);
    });

    it("stores 1 and 280 characters, trimmed, counting what the reader sees", async () => {
      for (const body of ["x", "y".repeat(280), `  ${"👍🏽".repeat(280)}  `]) {
        const response = await api(t.app, "POST", "/api/poems/river/whispers", {
          body: { stanzaIndex: 0, body },
          cookie: ada,
        });
        expect(response.status).toBe(201);
      }
      const texts = (await t.db.select().from(whispers)).map((whisper) => whisper.text);
      expect(texts).toContain("👍🏽".repeat(280));
    });

    it("lists approved whispers of one stanza newest first, with their authors, as plain text", async () => {
      const created = await api(t.app, "POST", "/api/poems/river/whispers", {
        body: { stanzaIndex: "1", body: "<b>bold</b> & <script>alert(1)</script>" },
        cookie: ben,
      });
      const whisper = await created.json();
      expect(whisper).toMatchObject({
        id: expect.any(Number),
        userId: expect.any(String),
        text: "<b>bold</b> & <script>alert(1)</script>",
        user: { firstName: null, lastName: null, profileImageUrl: null },
      });
      const hidden = await api(t.app, "POST", "/api/poems/river/whispers", {
        body: { stanzaIndex: 1, body: "hidden" },
        cookie: ben,
      });
      await t.db
        .update(whispers)
        .set({ isApproved: false })
        .where(eq(whispers.id, (await hidden.json()).id));
      const list = await (await t.app.request("/api/poems/river/whispers/1")).json();
      expect(list.map((item: { text: string }) => item.text)).toEqual([
        "<b>bold</b> & <script>alert(1)</script>",
      ]);
      const firstStanza = await (await t.app.request("/api/poems/river/whispers/0")).json();
      expect(firstStanza).toHaveLength(3);
      expect(new Date(firstStanza[0].createdAt) >= new Date(firstStanza[2].createdAt)).toBe(true);
    });

    it("lets only the author delete a whisper", async () => {
      const created = await api(t.app, "POST", "/api/poems/river/whispers", {
        body: { stanzaIndex: 2, body: "mine" },
        cookie: ada,
      });
      const { id } = await created.json();
      expect((await t.app.request(`/api/whispers/${id}`, { method: "DELETE" })).status).toBe(401);
      expect(
        (await t.app.request(`/api/whispers/${id}`, { method: "DELETE", headers: { Cookie: ben } }))
          .status,
      ).toBe(403);
      expect(
        (
          await t.app.request("/api/whispers/999999", {
            method: "DELETE",
            headers: { Cookie: ada },
          })
        ).status,
      ).toBe(404);
      expect(
        (await t.app.request(`/api/whispers/${id}`, { method: "DELETE", headers: { Cookie: ada } }))
          .status,
      ).toBe(204);
      expect(await t.db.select().from(whispers).where(eq(whispers.id, id))).toEqual([]);
    });

    it("refuses anonymous whispers and an out-of-range stanza", async () => {
      expect(
        (
          await api(t.app, "POST", "/api/poems/river/whispers", {
            body: { stanzaIndex: 0, body: "hi" },
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await api(t.app, "POST", "/api/poems/river/whispers", {
            body: { stanzaIndex: 9, body: "hi" },
            cookie: ada,
          })
        ).status,
      ).toBe(400);
      expect((await t.app.request("/api/poems/river/whispers/9")).status).toBe(400);
      expect((await t.app.request("/api/poems/river/whispers/x")).status).toBe(400);
    });

    it("limits whispers per reader per minute", async () => {
      const carl = await signIn(t, "carl@example.com");
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const response = await api(t.app, "POST", "/api/poems/river/whispers", {
          body: { stanzaIndex: 0, body: `w${i}` },
          cookie: carl,
        });
        statuses.push(response.status);
        if (response.status === 429) expect(response.headers.get("retry-after")).toBeTruthy();
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
      expect(statuses[10]).toBe(429);
    });
  });

  describe("journal", () => {
    it("toggles a saved stanza and lists the reader's entries", async () => {
      const added = await api(t.app, "POST", "/api/journal", {
        body: { poemSlug: "river", stanzaIndex: 1 },
        cookie: ada,
      });
      expect(await added.json()).toEqual({ added: true });
      const list = await (await t.app.request("/api/journal", { headers: { Cookie: ada } })).json();
      expect(list).toEqual([
        {
          id: expect.any(Number),
          stanzaIndex: "1",
          createdAt: expect.any(String),
          poem: {
            slug: "river",
            title: "River",
            stanzas: ["one / two", "three / four", "five / six"],
          },
        },
      ]);
      expect(
        await (
          await t.app.request("/api/poems/river/journal", { headers: { Cookie: ada } })
        ).json(),
      ).toEqual(["1"]);
      expect(
        await (await t.app.request("/api/journal", { headers: { Cookie: ben } })).json(),
      ).toEqual([]);
      const removed = await api(t.app, "POST", "/api/journal", {
        body: { poemSlug: "river", stanzaIndex: "1" },
        cookie: ada,
      });
      expect(await removed.json()).toEqual({ added: false });
      expect(await t.db.select().from(journalEntries)).toHaveLength(0);
    });

    it("toggles on and at once off again, and stores as many entries as toggles answered added, less those answered removed, after 30 at once", async () => {
      const dora = await signIn(t, "dora@example.com");
      const toggle = () =>
        api(t.app, "POST", "/api/journal", {
          body: { poemSlug: "river", stanzaIndex: 0 },
          cookie: dora,
        });
      const stored = async () =>
        (await t.db.select().from(journalEntries)).filter((entry) => entry.stanzaIndex === "0")
          .length;
      expect(await (await toggle()).json()).toEqual({ added: true });
      expect(await (await toggle()).json()).toEqual({ added: false });
      expect(await stored()).toBe(0);

      // A true toggle cannot promise one entry after a burst: an even number of toggles, taken
      // one after another, leaves none. What it promises is that every answer was true.
      const responses = await Promise.all(Array.from({ length: 30 }, toggle));
      expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));
      const answers = await Promise.all(
        responses.map(async (response) => ((await response.json()) as { added: boolean }).added),
      );
      const added = answers.filter(Boolean).length;
      const entries = await stored();
      expect(entries).toBe(added - (answers.length - added));
      expect(entries === 0 || entries === 1).toBe(true);
      if (entries === 1) expect(await (await toggle()).json()).toEqual({ added: false });
      expect(await stored()).toBe(0);
    });

    it("adds without toggling for sync, however often it is repeated", async () => {
      for (let i = 0; i < 3; i++) {
        const response = await api(t.app, "PUT", "/api/journal", {
          body: { poemSlug: "river", stanzaIndex: 2 },
          cookie: ben,
        });
        expect(await response.json()).toEqual({ added: i === 0 });
      }
      expect(await t.db.select().from(journalEntries)).toHaveLength(1);
    });

    it("needs sign-in and a real poem and stanza", async () => {
      expect(
        (await api(t.app, "POST", "/api/journal", { body: { poemSlug: "river", stanzaIndex: 0 } }))
          .status,
      ).toBe(401);
      expect((await t.app.request("/api/journal")).status).toBe(401);
      expect((await t.app.request("/api/poems/river/journal")).status).toBe(401);
      expect(
        (
          await api(t.app, "POST", "/api/journal", {
            body: { poemSlug: "nope", stanzaIndex: 0 },
            cookie: ada,
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await api(t.app, "POST", "/api/journal", {
            body: { poemSlug: "river", stanzaIndex: 7 },
            cookie: ada,
          })
        ).status,
      ).toBe(400);
    });
  });
});
