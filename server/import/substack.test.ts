import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseImport } from "./parse.ts";
import { ImportFileError } from "./types.ts";

// A Substack export, written to its published format (docs/product/import.md).
const FOLDER = path.join(import.meta.dirname, "../../tests/fixtures/import/substack");

async function exportZip(change: (files: Record<string, Uint8Array>) => void = () => {}) {
  const files: Record<string, Uint8Array> = {};
  for (const name of await readdir(FOLDER, { recursive: true })) {
    if (name.includes("."))
      files[name.split(path.sep).join("/")] = await readFile(path.join(FOLDER, name));
  }
  change(files);
  return zipSync(files);
}

describe("Substack export", () => {
  it("brings each post as a poem: stanzas, lines, indentation, date, old path, notes", async () => {
    const result = await parseImport({ fileName: "kettlepoems.zip", bytes: await exportZip() });
    expect(result.source).toBe("substack");
    expect(result.poems[0]).toEqual({
      site: "",
      sourceId: "139420113.the-kettle",
      legacyId: null,
      title: "The Kettle",
      slug: "the-kettle",
      stanzas: [
        "The kettle sings before I wake, / a thin song over the dark, / a small & certain weather.",
        "I lie and listen — /     the house still mine, /     the day not yet.",
        "Steam writes its one word / on the window, and forgets it.",
      ],
      tags: [],
      state: "published",
      publishAt: new Date("2023-10-02T07:30:00.000Z"),
      coverUrl: null,
      coverAlt: null,
      oldPaths: ["/p/the-kettle"],
      audioUrl: null,
      chosen: true,
      notes: [
        "Dropped the heading “after the boil”",
        "Dropped an image",
        "Dropped a subscribe button",
        "Dropped a button",
        "Dropped the caption “Morning, 6 a.m.”",
        "Left out the subtitle “A morning poem”",
      ],
    });
  });

  it("reads line-per-paragraph posts as stanzas of lines, drops scripts and says a paid post is now public", async () => {
    const { poems } = await parseImport({ fileName: "kettlepoems.zip", bytes: await exportZip() });
    expect(poems[1]).toMatchObject({
      title: "What the River Kept, and Why",
      stanzas: [
        "The river kept a boot, / a wedding ring, / the names we shouted from the bridge.",
        "It gave back only / the shouting.",
      ],
      notes: [
        "Dropped a script",
        "Each line was its own paragraph: the empty paragraphs between them were read as stanza breaks",
        "It was for paid subscribers on Substack; here every reader can read it",
      ],
    });
  });

  it("keeps a draft a draft, with no date and no old path", async () => {
    const { poems } = await parseImport({ fileName: "kettlepoems.zip", bytes: await exportZip() });
    expect(poems[3]).toMatchObject({
      title: "Salt",
      state: "draft",
      publishAt: null,
      oldPaths: [],
    });
    expect(poems).toHaveLength(4);
  });

  it("offers a podcast episode with text as a poem the poet may choose, its audio its reading", async () => {
    const { poems } = await parseImport({ fileName: "kettlepoems.zip", bytes: await exportZip() });
    expect(poems[2]).toMatchObject({
      sourceId: "139421002.reading-the-kettle-aloud",
      title: "Reading The Kettle aloud",
      stanzas: ["In this episode I read The Kettle."],
      state: "published",
      audioUrl: "https://api.substack.com/feed/podcast/139421002/abc123.mp3",
      chosen: false,
    });
    expect(poems[2]?.notes).toContain(
      "A podcast episode on Substack: its text comes in as the poem, its audio as the poem's reading, copied to this site with the covers (else it stays a link to Substack's file)",
    );
  });

  it("keeps an episode's http audio to be copied, saying it is left out if it is not", async () => {
    const bytes = await exportZip((files) => {
      const csv = new TextDecoder().decode(files["posts.csv"]);
      files["posts.csv"] = new TextEncoder().encode(
        csv.replace(
          "https://api.substack.com/feed/podcast/139421002/abc123.mp3",
          "http://feeds.example.com/episode-7.mp3",
        ),
      );
    });
    const { poems } = await parseImport({ fileName: "kettlepoems.zip", bytes });
    expect(poems[2]).toMatchObject({ audioUrl: "http://feeds.example.com/episode-7.mp3" });
    expect(poems[2]?.notes).toContain(
      "A podcast episode on Substack: its text comes in as the poem, its audio as the poem's reading, copied to this site with the covers (else it is left out, as its link is not https)",
    );
  });

  it("skips podcasts, discussion threads, posts with no text and posts whose HTML is missing, saying why", async () => {
    const bytes = await exportZip((files) => {
      delete files["posts/139421250.untitled-draft.html"];
    });
    const { skipped } = await parseImport({ fileName: "kettlepoems.zip", bytes }, "substack");
    expect(skipped).toEqual([
      {
        sourceId: "139421250.untitled-draft",
        title: "Salt",
        reason: "Its text is not in the export (posts/139421250.untitled-draft.html is missing)",
      },
      {
        sourceId: "139421400.open-thread",
        title: "Open thread: your winter poems",
        reason: "A discussion thread, not a post",
      },
      { sourceId: "139421777.only-a-picture", title: "Only a picture", reason: "It has no text" },
    ]);
  });

  it("finds the text of a post whose post_id has no slug by its number", async () => {
    const bytes = await exportZip((files) => {
      const csv = new TextDecoder().decode(files["posts.csv"]);
      files["posts.csv"] = new TextEncoder().encode(
        csv.replace("139421250.untitled-draft,", "139421250,"),
      );
    });
    const { poems } = await parseImport({ fileName: "kettlepoems.zip", bytes });
    expect(poems[3]).toMatchObject({
      sourceId: "139421250",
      title: "Salt",
      slug: null,
      stanzas: ["Salt on the sill, / salt in the bread."],
    });
  });

  it("reads a post with a podcast_url as an episode whatever its type; skips one with no text", async () => {
    const bytes = await exportZip((files) => {
      const csv = new TextDecoder().decode(files["posts.csv"]);
      files["posts.csv"] = new TextEncoder().encode(
        csv
          .replace(
            "newsletter,everyone,The Kettle,A morning poem,",
            "newsletter,everyone,The Kettle,A morning poem,https://example.com/a.mp3",
          )
          .replace(
            "newsletter,everyone,Only a picture,,",
            "podcast,everyone,Only a picture,,https://example.com/b.mp3",
          ),
      );
    });
    const { poems, skipped } = await parseImport({ fileName: "kettlepoems.zip", bytes });
    expect(poems[0]).toMatchObject({
      sourceId: "139420113.the-kettle",
      audioUrl: "https://example.com/a.mp3",
      chosen: false,
    });
    expect(skipped.at(-1)).toMatchObject({
      sourceId: "139421777.only-a-picture",
      reason: "A podcast episode: its audio is not a poem's text, and it has no text",
    });
  });

  it("skips a Substack page like the other platforms' pages", async () => {
    const bytes = await exportZip((files) => {
      const csv = new TextDecoder().decode(files["posts.csv"]);
      files["posts.csv"] = new TextEncoder().encode(
        csv.replace("newsletter,everyone,The Kettle,", "page,everyone,The Kettle,"),
      );
    });
    const { poems, skipped } = await parseImport({ fileName: "kettlepoems.zip", bytes });
    expect(poems.map((poem) => poem.title)).not.toContain("The Kettle");
    expect(skipped[0]).toEqual({
      sourceId: "139420113.the-kettle",
      title: "The Kettle",
      reason: "A page, not a post",
    });
  });

  it("brings readers who were receiving email, whatever their paid plan; lists the others with why", async () => {
    const { subscribers } = await parseImport({
      fileName: "kettlepoems.zip",
      bytes: await exportZip(),
    });
    expect(subscribers).toEqual([
      {
        email: "ada@example.com",
        name: null,
        receivingEmail: true,
        subscribedAt: new Date("2023-01-04T10:12:00.000Z"),
        skipReason: null,
      },
      {
        email: "ben.reader@example.org",
        name: null,
        receivingEmail: true,
        subscribedAt: new Date("2023-02-11T08:00:00.000Z"),
        skipReason: null,
      },
      {
        email: "cleo@example.net",
        name: null,
        receivingEmail: false,
        subscribedAt: new Date("2023-03-01T09:00:00.000Z"),
        skipReason: "They had turned email off on Substack",
      },
      {
        email: "not-an-address",
        name: null,
        receivingEmail: false,
        subscribedAt: new Date("2023-03-02T09:00:00.000Z"),
        skipReason: "Not a valid email address",
      },
      {
        email: "dan@example.com",
        name: null,
        receivingEmail: true,
        subscribedAt: new Date("2023-06-01T09:00:00.000Z"),
        skipReason: null,
      },
    ]);
  });

  it("reads the same export unpacked in a folder (the CLI), and an email list on its own", async () => {
    const fromFolder = await parseImport({ directory: FOLDER });
    expect(fromFolder.poems.map((poem) => poem.sourceId)).toEqual([
      "139420113.the-kettle",
      "139420587.what-the-river-kept",
      "139421002.reading-the-kettle-aloud",
      "139421250.untitled-draft",
    ]);
    const list = await parseImport({
      fileName: "email_list.kettlepoems.csv",
      bytes: await readFile(path.join(FOLDER, "email_list.kettlepoems.csv")),
    });
    expect(list).toMatchObject({ source: "substack", poems: [] });
    expect(list.subscribers).toHaveLength(5);
  });

  it("refuses a malformed posts.csv row, naming the entry and the line", async () => {
    const bytes = await exportZip((files) => {
      files["posts.csv"] = new TextEncoder().encode(
        'post_id,post_date,is_published,type,title\n1.a,2023-01-01,true,newsletter,A\n2.b,2023-01-02,true,newsletter,"B\n',
      );
    });
    const error = await parseImport({ fileName: "kettlepoems.zip", bytes }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(ImportFileError);
    expect(error).toMatchObject({
      file: "kettlepoems.zip/posts.csv",
      line: 3,
      message: "kettlepoems.zip/posts.csv, line 3: a quoted field is never closed",
    });
  });

  it("refuses a posts.csv without the columns of Substack's export, and a zip that is not one", async () => {
    const noColumn = await exportZip((files) => {
      files["posts.csv"] = new TextEncoder().encode("id,title\n1,A\n");
    });
    await expect(parseImport({ fileName: "x.zip", bytes: noColumn })).rejects.toThrow(
      "x.zip/posts.csv, line 1: it has no post_id, is_published column",
    );
    const other = zipSync({ "photo.jpg": new Uint8Array([0xff, 0xd8, 0xff]) });
    await expect(parseImport({ fileName: "x.zip", bytes: other }, "substack")).rejects.toThrow(
      "x.zip is not a Substack export: it has no posts.csv and no email_list CSV",
    );
  });
});
