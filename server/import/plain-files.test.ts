import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { parseImport } from "./parse.ts";

// Plain .md and .txt poems (docs/product/import.md).
const POEMS = path.join(import.meta.dirname, "../../tests/fixtures/import/plain/poems");
const NOW = new Date("2026-11-26T09:00:00.000Z");
const file = (name: string, text: string | Uint8Array) =>
  parseImport(
    { fileName: name, bytes: typeof text === "string" ? strToU8(text) : text },
    undefined,
    { now: NOW },
  );

describe("plain files", () => {
  it("reads a folder: front matter, first-line titles, file-name titles, indentation, drafts; other files skipped", async () => {
    const result = await parseImport({ directory: POEMS }, "files", { now: NOW });
    expect(result.source).toBe("files");
    expect(result.poems.map(({ sourceId, title, state }) => ({ sourceId, title, state }))).toEqual([
      { sourceId: "draft-harvest.md", title: "Harvest", state: "draft" },
      { sourceId: "first-snow.txt", title: "First Snow", state: "published" },
      { sourceId: "the-lamp.md", title: "The Lamp", state: "published" },
      { sourceId: "untitled_rain.txt", title: "untitled rain", state: "published" },
    ]);
    expect(result.poems[1]?.stanzas).toEqual([
      "Nobody walked here yet. /     The field is a page /     held open by the cold.",
      "I leave it as it is.",
    ]);
    expect(result.poems[2]).toMatchObject({
      slug: "the-lamp",
      tags: ["night", "home"],
      publishAt: new Date("2022-11-03T00:00:00.000Z"),
      stanzas: [
        "The lamp is the last to sleep. / It keeps one yellow word /     for anyone still out.",
        "When I come in / it says it.",
      ],
      notes: ["Dropped an image"],
    });
    expect(result.poems[0]).toMatchObject({
      tags: ["harvest", "autumn"],
      publishAt: null,
      notes: ["Dropped the heading “Part one”"],
    });
    expect(result.skipped).toEqual([
      { sourceId: "notes.pdf", title: "notes.pdf", reason: "It is not a .md or .txt file" },
    ]);
  });

  it("reads the same poems from a zip, keyed by their paths in it", async () => {
    const bytes = zipSync({
      "My Poems/a.md": strToU8("# Alpha\n\none\ntwo\n"),
      "My Poems/b/c.txt": strToU8("gamma\n"),
    });
    const { poems } = await file("My Poems.zip", bytes);
    expect(poems.map(({ sourceId, title, stanzas }) => ({ sourceId, title, stanzas }))).toEqual([
      { sourceId: "My Poems/a.md", title: "Alpha", stanzas: ["one / two"] },
      { sourceId: "My Poems/b/c.txt", title: "c", stanzas: ["gamma"] },
    ]);
  });

  it("schedules a poem dated after now, and takes a .md's HTML as text only", async () => {
    const { poems } = await file(
      "later.md",
      "---\ntitle: Later\ndate: 2027-01-01T08:00:00Z\n---\nsoon <b>enough</b><script>alert(1)</script>\n",
    );
    expect(poems[0]).toMatchObject({
      state: "scheduled",
      publishAt: new Date("2027-01-01T08:00:00Z"),
      stanzas: ["soon enough"],
      notes: ["Dropped a script"],
    });
  });

  it("keeps a .txt as typed: '<b>' is text, made harmless", async () => {
    const { poems } = await file("code.txt", "Code\n\nI wrote <b>bold</b>\nand a < b\n");
    expect(poems[0]?.stanzas).toEqual(["I wrote ‹b>bold‹/b> / and a < b"]);
  });

  it("never runs front matter as code: JavaScript front matter is refused and the file skipped", async () => {
    const attack =
      "---js\n{ title: (() => { globalThis.ran = true; return 'x'; })() }\n---\nline\n";
    const result = await file("attack.md", attack);
    expect((globalThis as { ran?: boolean }).ran).toBeUndefined();
    expect(result.skipped).toEqual([
      {
        sourceId: "attack.md",
        title: "attack",
        reason: "Its front matter could not be read: front matter may only be YAML",
      },
    ]);
  });

  it("reads YAML whose aliases nest a list a billion times over without expanding it", async () => {
    const laughs = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (const [from, to] of ["ab", "bc", "cd", "de", "ef", "fg", "gh", "hi"]) {
      laughs.push(`${to}: &${to} [${Array(9).fill(`*${from}`).join(", ")}]`);
    }
    const started = performance.now();
    const { poems } = await file(
      "laughs.md",
      `---\n${laughs.join("\n")}\ntitle: Laughs\ntags: *i\n---\nline\n`,
    );
    expect(poems[0]).toMatchObject({ title: "Laughs", tags: [], stanzas: ["line"] });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("skips a file whose YAML is malformed, naming the line in the file", async () => {
    const { skipped } = await file("bad.md", "---\ntitle: fine\ntags: [a, b\n---\nline\n");
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.reason).toMatch(
      /^Its front matter could not be read \(line \d+\): it is not valid YAML$/,
    );
  });

  it("reads a file that is not UTF-8 as Windows-1252, saying so", async () => {
    const latin = new Uint8Array([
      ...strToU8("Caf"),
      0xe9,
      ...strToU8("\n\nun caf"),
      0xe9,
      ...strToU8(" noir\n"),
    ]);
    const { poems } = await file("cafe.txt", latin);
    expect(poems[0]).toMatchObject({
      title: "Café",
      stanzas: ["un café noir"],
      notes: ["It was not UTF-8: it was read as Windows-1252"],
    });
  });

  it("refuses a zip with no poems in it", async () => {
    await expect(
      file("photos.zip", zipSync({ "a.jpg": new Uint8Array([1, 2, 3]) })),
    ).rejects.toThrow(
      "photos.zip holds nothing that is a poem (.md, .txt) or a Substack, Ghost or WordPress export",
    );
  });
});

describe("poem limits (common/schemas/admin.ts)", () => {
  const folders: string[] = [];
  afterAll(() =>
    Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))),
  );

  it("skips a poem over 500 stanzas or with a stanza over 10,000 characters, and one with no text", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "import-limits-"));
    folders.push(folder);
    await writeFile(
      path.join(folder, "long.txt"),
      `Long\n\n${Array.from({ length: 501 }, (_, n) => `line ${n}`).join("\n\n")}`,
    );
    await writeFile(path.join(folder, "wide.txt"), `Wide\n\n${"word ".repeat(2_001)}`);
    await writeFile(path.join(folder, "empty.md"), "---\ntitle: Nothing\n---\n\n");
    await writeFile(
      path.join(folder, "fits.txt"),
      `Fits\n\n${Array.from({ length: 500 }, (_, n) => `line ${n}`).join("\n\n")}`,
    );
    const result = await parseImport({ directory: folder }, "files", { now: NOW });
    expect(result.skipped).toEqual([
      { sourceId: "empty.md", title: "Nothing", reason: "It has no text" },
      {
        sourceId: "long.txt",
        title: "Long",
        reason: "It has 501 stanzas; a poem holds at most 500",
      },
      {
        sourceId: "wide.txt",
        title: "Wide",
        reason: "Its stanza 1 is over 10000 characters, the most a stanza holds",
      },
    ]);
    expect(result.poems.map((poem) => [poem.sourceId, poem.stanzas.length])).toEqual([
      ["fits.txt", 500],
    ]);
  });

  it("cuts a title over 300 characters, leaves out a tag over 50, and makes the slug this site's form", async () => {
    const title = "t".repeat(310);
    const { poems } = await file(
      "x.md",
      `---\ntitle: ${title}\ntags: [ok, ${"x".repeat(51)}]\nslug: Ça%20va Très-Bien!\n---\nline\n`,
    );
    expect(poems[0]).toMatchObject({
      title: "t".repeat(300),
      tags: ["ok"],
      slug: "ca-va-tres-bien",
      notes: [
        "The title was cut to 300 characters",
        `Left out the tag “${"x".repeat(51)}…”: a tag is at most 50 characters`,
      ],
    });
  });

  it("reads a bare year as that year, and says when a date cannot be read rather than dating it now in silence", async () => {
    const year = await file("a.md", "---\ndate: 2019\n---\nline\n");
    expect(year.poems[0]?.publishAt).toEqual(new Date("2019-01-01T00:00:00Z"));
    const unreadable = await file("b.md", "---\ndate: spring of that year\n---\nline\n");
    expect(unreadable.poems[0]?.notes).toContain(
      "Its date “spring of that year” could not be read: it is dated at the import",
    );
  });
});
