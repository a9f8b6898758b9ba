import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stanzaLines, stanzasFromText, stanzasToText } from "../../common/stanza.ts";
import { createBackup, restoreBackup } from "../../server/db/backup.ts";
import { poems, poemVersions } from "../../server/db/schema.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers, openTestDatabase } from "../helpers/database.ts";
import { createPoem, ensureTags } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Any line survives every way a poem travels (docs/decisions/062-a-line-that-holds-the-marker.md):
 * the admin form, the API, an import, the content export and a backup, each read back as lines.
 * Lines are made of spaces, slashes, backslashes and a few letters, indented up to 60 spaces.
 */
const verseLine = fc
  .array(fc.constantFrom(" ", " ", "/", "/", "\\", "a", "o", "—"), { minLength: 1, maxLength: 14 })
  .map((chars) => chars.join("").trimEnd())
  .filter((line) => line.length > 0);
const line = fc
  .tuple(fc.oneof(fc.constant(0), fc.constant(45), fc.nat({ max: 60 })), verseLine)
  .map(([spaces, words]) => " ".repeat(spaces) + words);
const poemLines = fc.array(fc.array(line, { minLength: 1, maxLength: 5 }), {
  minLength: 1,
  maxLength: 3,
});

type Lines = string[][];
const readLines = (stanzas: string[]): Lines => stanzas.map((stanza) => stanzaLines(stanza));
const RUNS = 12;

describe.each(drivers)("a poem's lines kept whole on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let tagId: number;
  let made = 0;

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await signIn(t, "poet@example.com", { admin: true });
    const [tag] = await ensureTags(t.db, ["lines"]);
    tagId = tag?.id ?? 0;
  }, 120_000);
  afterAll(() => t.close());

  /** The admin form's text for `poem`, sent as the form sends it. */
  const formStanzas = (poem: Lines) =>
    stanzasFromText(poem.map((lines) => lines.join("\n")).join("\n\n"));

  const save = async (method: "POST" | "PUT", path: string, slug: string, stanzas: string[]) => {
    const response = await api(t.app, method, path, {
      cookie: admin,
      origin: SITE_ORIGIN,
      body: {
        title: slug,
        slug,
        stanzas,
        audioUrl: "",
        coverUrl: "",
        coverAlt: "",
        tagIds: [tagId],
      },
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as { id: number };
  };

  const readPoem = async (slug: string): Promise<string[]> => {
    const response = await t.app.request(`/api/poems/${slug}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { stanzas: string[] }).stanzas;
  };

  it("through the admin form and the API (PUT, then GET)", async () => {
    await fc.assert(
      fc.asyncProperty(poemLines, poemLines, async (first, second) => {
        const slug = `form-${++made}`;
        const { id } = await save("POST", "/api/admin/poems", slug, formStanzas(first));
        expect(readLines(await readPoem(slug))).toEqual(first);
        await save("PUT", `/api/admin/poems/${id}`, slug, formStanzas(second));
        const stanzas = await readPoem(slug);
        expect(readLines(stanzas)).toEqual(second);
        // The form shows the poem it was given.
        expect(stanzasToText(stanzas)).toBe(second.map((lines) => lines.join("\n")).join("\n\n"));
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("through an import of a plain-text poem", async () => {
    await fc.assert(
      fc.asyncProperty(poemLines, async (poem) => {
        const slug = `imported-${++made}`;
        const text = `---\ntitle: ${slug}\nslug: ${slug}\n---\n${poem.map((lines) => lines.join("\n")).join("\n\n")}\n`;
        const { job } = await t.services.imports.importAsOperator(
          { fileName: `${slug}.txt`, bytes: new TextEncoder().encode(text) },
          "files",
          { dryRun: false, fetchCovers: false, subscribersConsented: false },
        );
        expect(job?.poemsImported).toBe(1);
        expect(readLines(await readPoem(slug))).toEqual(poem);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("through the content export and import, and a backup and restore", async () => {
    const poems = fc.sample(poemLines, { numRuns: 20, seed: 62 });
    for (const [at, poem] of poems.entries()) {
      await save("POST", "/api/admin/poems", `kept-${at}`, formStanzas(poem));
    }
    for (const scope of ["content", "everything"] as const) {
      const copy = JSON.parse(JSON.stringify(await createBackup(t.db, scope)));
      const restored = await openTestDatabase(driver);
      try {
        await restoreBackup(restored.db, copy);
        const again = await createBackup(restored.db, "content");
        const rows = again.tables.poems as { slug: string; stanzas: string[] }[];
        for (const [at, poem] of poems.entries()) {
          const row = rows.find((candidate) => candidate.slug === `kept-${at}`);
          expect(readLines(row?.stanzas ?? [])).toEqual(poem);
        }
      } finally {
        await restored.close();
      }
    }
  }, 300_000);

  it("reads a stanza stored before the escape as it read then (the migration doubles its backslashes)", async () => {
    // Lines as they read before: a backslash before a slash or a backslash was itself.
    const before = ["a\\/b / c\\\\d", "  e\\ / \\"];
    const linesBefore = [
      ["a\\/b", "c\\\\d"],
      ["  e\\", "\\"],
    ];
    const poem = await createPoem(t.db, { slug: "from-before", stanzas: before });
    await t.db
      .insert(poemVersions)
      .values({ poemId: poem.id, title: "x", stanzas: before, savedAt: new Date() });
    const migration = fs.readFileSync("server/db/migrations/0017_stanza_line_escape.sql", "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) {
      await t.db.execute(sql.raw(statement));
    }
    const [row] = await t.db.select().from(poems).where(eq(poems.id, poem.id));
    const [version] = await t.db
      .select()
      .from(poemVersions)
      .where(eq(poemVersions.poemId, poem.id));
    expect(readLines(row?.stanzas ?? [])).toEqual(linesBefore);
    expect(readLines(version?.stanzas ?? [])).toEqual(linesBefore);
  });
});
