import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { echoes, journalEntries, poems, whispers } from "../../server/db/schema.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { ensureTags } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const ONE = "The kettle sings / before the house is up";
const TWO = "My father's hands / were maps of every field";
const THREE = "We carried light / the way the river carries stones";
const NEW = "A brand new stanza / about the harbour at dusk";

/** Decision 023: the poet revises, and every echo, whisper and saved stanza stays on its words. */
describe.each(drivers)("a stanza stays itself on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let readers: string[];
  let tagIds: number[];
  let poemId: number;

  /** The admin's call, or a reader's with `cookie`. */
  const call = (method: string, path: string, body?: unknown, cookie = admin) =>
    api(t.app, method, path, { body, cookie, origin: SITE_ORIGIN });
  const save = (stanzas: string[], title = "Kitchen Hours") =>
    call("PUT", `/api/admin/poems/${poemId}`, {
      title,
      slug: "kitchen-hours",
      stanzas,
      tagIds,
    });
  /** Each reader's words, as readers see them: stanza text → what is on it. */
  async function wordsOnStanzas() {
    const page = (await (await t.app.request("/api/poems/kitchen-hours")).json()) as {
      stanzas: string[];
    };
    const counts = (await (await t.app.request("/api/poems/kitchen-hours/echos")).json()) as {
      stanzaIndex: string;
      count: number;
    }[];
    const shown: Record<string, { echoes: number; whispers: string[]; saved: number }> = {};
    for (const [index, stanza] of page.stanzas.entries()) {
      const stanzaWhispers = (await (
        await t.app.request(`/api/poems/kitchen-hours/whispers/${index}`)
      ).json()) as { text: string }[];
      let saved = 0;
      for (const reader of readers) {
        const indexes = (await (
          await call("GET", "/api/poems/kitchen-hours/journal", undefined, reader)
        ).json()) as string[];
        if (indexes.includes(String(index))) saved += 1;
      }
      shown[stanza] = {
        echoes: counts.find((row) => row.stanzaIndex === String(index))?.count ?? 0,
        whispers: stanzaWhispers.map((whisper) => whisper.text).sort(),
        saved,
      };
    }
    return shown;
  }

  beforeAll(async () => {
    // Each test writes three whispers per reader: limits high enough for the whole file.
    t = await createTestApp(driver, { env: { RATE_LIMIT_SCALE: "100" } });
    admin = await signIn(t, "poet@example.com", { admin: true });
    readers = [await signIn(t, "ada@example.com"), await signIn(t, "ben@example.com")];
    tagIds = (await ensureTags(t.db, ["Home"])).map((tag) => tag.id);
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.db.delete(poems);
    const created = await call("POST", "/api/admin/poems", {
      title: "Kitchen Hours",
      slug: "kitchen-hours",
      stanzas: [ONE, TWO, THREE],
      tagIds,
    });
    poemId = (await created.json()).id;
    // Each reader echoes, whispers on and saves each of the three stanzas.
    for (const [number, reader] of readers.entries()) {
      for (const stanzaIndex of [0, 1, 2]) {
        const base = "/api/poems/kitchen-hours";
        await call("POST", `${base}/echo`, { stanzaIndex }, reader);
        await call(
          "POST",
          `${base}/whispers`,
          { stanzaIndex, body: `r${number}s${stanzaIndex}` },
          reader,
        );
        await call("POST", "/api/journal", { poemSlug: "kitchen-hours", stanzaIndex }, reader);
      }
    }
  });

  const onStanza = (index: number) => ({
    echoes: 2,
    whispers: [`r0s${index}`, `r1s${index}`],
    saved: 2,
  });

  it("keeps every reader's words on their stanza when one is inserted at the top", async () => {
    expect((await save([NEW, ONE, TWO, THREE])).status).toBe(200);
    expect(await wordsOnStanzas()).toEqual({
      [NEW]: { echoes: 0, whispers: [], saved: 0 },
      [ONE]: onStanza(0),
      [TWO]: onStanza(1),
      [THREE]: onStanza(2),
    });
  });

  it("keeps them through a swap and a mended word", async () => {
    const mended = TWO.replace("every", "each");
    expect((await save([THREE, mended, ONE])).status).toBe(200);
    expect(await wordsOnStanzas()).toEqual({
      [THREE]: onStanza(2),
      [mended]: onStanza(1),
      [ONE]: onStanza(0),
    });
  });

  it("sets aside the words of a removed stanza, says so, and brings them back on restore", async () => {
    const saved = await save([ONE, THREE]);
    expect(await saved.json()).toMatchObject({
      removedStanzaWords: { echoes: 2, whispers: 2, journalEntries: 2 },
    });
    expect(await wordsOnStanzas()).toEqual({ [ONE]: onStanza(0), [THREE]: onStanza(2) });
    // Nothing was deleted.
    expect(await t.db.select().from(whispers)).toHaveLength(6);

    const versions = (await (await call("GET", `/api/admin/poems/${poemId}/versions`)).json()) as {
      id: number;
      stanzaCount: number;
      firstLine: string;
    }[];
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ stanzaCount: 3, firstLine: "The kettle sings" });
    const restored = await call(
      "POST",
      `/api/admin/poems/${poemId}/versions/${versions[0]?.id}/restore`,
    );
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({
      stanzas: [ONE, TWO, THREE],
      removedStanzaWords: { echoes: 0, whispers: 0, journalEntries: 0 },
    });
    expect(await wordsOnStanzas()).toEqual({
      [ONE]: onStanza(0),
      [TWO]: onStanza(1),
      [THREE]: onStanza(2),
    });
    // The restore is itself a version.
    expect(await (await call("GET", `/api/admin/poems/${poemId}/versions`)).json()).toHaveLength(2);
  });

  it("collapses a reader's echo and saved stanza into one when two stanzas merge", async () => {
    const merged = `${ONE} / ${TWO}`;
    expect((await save([merged, THREE])).status).toBe(200);
    const shown = await wordsOnStanzas();
    expect(shown[merged]).toEqual({
      echoes: 2,
      whispers: ["r0s0", "r0s1", "r1s0", "r1s1"],
      saved: 2,
    });
    const rows = await t.db
      .select()
      .from(echoes)
      .where(and(eq(echoes.poemId, poemId), eq(echoes.stanzaIndex, "0")));
    expect(rows).toHaveLength(2);
  });

  it("leaves every row on exactly one stanza when two saves come at once", async () => {
    const answers = await Promise.all([save([NEW, ONE, TWO, THREE]), save([THREE, TWO, ONE])]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const [poem] = await t.db.select().from(poems).where(eq(poems.id, poemId));
    const stanzas = poem?.stanzas ?? [];
    for (const table of [echoes, whispers, journalEntries]) {
      const rows = await t.db.select().from(table).where(eq(table.poemId, poemId));
      expect(rows).toHaveLength(6);
      for (const row of rows) {
        expect(row.removedWithVersionId).toBeNull();
        expect(Number(row.stanzaIndex)).toBeLessThan(stanzas.length);
      }
    }
    // Whoever saved last, each stanza still carries the words first written on it.
    const shown = await wordsOnStanzas();
    expect(shown[ONE]).toEqual(onStanza(0));
    expect(shown[TWO]).toEqual(onStanza(1));
    expect(shown[THREE]).toEqual(onStanza(2));
  });

  it("refuses bad input and moves nothing: invalid stanzas, another poem's version, an unknown one", async () => {
    const before = await wordsOnStanzas();
    const invalid = await save([" ", ""]);
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).message).toBe("At least one stanza is required");
    expect(await wordsOnStanzas()).toEqual(before);

    await save([ONE, TWO]);
    const [version] = (await (await call("GET", `/api/admin/poems/${poemId}/versions`)).json()) as {
      id: number;
    }[];
    const other = await call("POST", "/api/admin/poems", {
      title: "Other",
      slug: "other",
      stanzas: ["x"],
      tagIds,
    });
    const otherId = (await other.json()).id;
    for (const path of [
      `/api/admin/poems/${otherId}/versions/${version?.id}/restore`,
      `/api/admin/poems/${poemId}/versions/999999/restore`,
      `/api/admin/poems/999999/versions`,
    ]) {
      expect((await call(path.endsWith("restore") ? "POST" : "GET", path)).status, path).toBe(404);
    }
    expect(
      (await call("GET", `/api/admin/poems/${poemId}/versions`, undefined, readers[0])).status,
    ).toBe(403);
  });
});
