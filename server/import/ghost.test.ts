import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseImport } from "./parse.ts";
import { ImportFileError } from "./types.ts";

// A Ghost 5 export and members CSV, written to their published format (docs/product/import.md).
const FIXTURES = path.join(import.meta.dirname, "../../tests/fixtures/import");
const bytesOf = (name: string) => readFile(path.join(FIXTURES, name));
const text = (value: string) => new TextEncoder().encode(value);

describe("Ghost JSON export", () => {
  it("brings a published post with its tags in order, cover, cover description and old path", async () => {
    const result = await parseImport({
      fileName: "harbour.ghost.2023-11-30.json",
      bytes: await bytesOf("ghost-5-export.json"),
    });
    expect(result.source).toBe("ghost");
    expect(result.poems[0]).toEqual({
      site: "",
      sourceId: "9c1f8a2e-0000-4000-8000-000000000001",
      legacyId: "65173b2f2b1d3c0001a0b0d1",
      audioUrl: null,
      chosen: true,
      title: "Harbour Lights",
      slug: "harbour-lights",
      stanzas: [
        "The harbour lights come on / one by one, like a slow / counting of the lost.",
        "  Nobody answers. /   Everybody is home.",
      ],
      tags: ["Sea", "Night"],
      state: "published",
      publishAt: new Date("2023-10-02T08:30:00.000Z"),
      coverUrl: "https://images.unsplash.com/photo-1500000000000?w=2000",
      coverAlt: "The harbour at dusk, its lights reflected",
      oldPaths: ["/harbour-lights/"],
      notes: ["Dropped an image", "Dropped a button", "Dropped the caption “Dusk”"],
    });
  });

  it("reads a draft from its Lexical document and a scheduled post from its Mobiledoc, keeping their states", async () => {
    const { poems } = await parseImport(
      { fileName: "export.json", bytes: await bytesOf("ghost-5-export.json") },
      "ghost",
    );
    expect(poems[1]).toMatchObject({
      title: "Frost",
      state: "draft",
      publishAt: null,
      oldPaths: [],
      stanzas: [
        "Frost on the gate, / frost on the latch,",
        "and my breath, a guest / that will not stay.",
      ],
      notes: ["Dropped an image"],
    });
    expect(poems[2]).toMatchObject({
      title: "Orchard",
      state: "scheduled",
      publishAt: new Date("2030-03-21T06:00:00.000Z"),
      stanzas: ["The orchard in March, / all bone and promise.", "I wait with it."],
      coverUrl: null,
      notes: [
        "Dropped the heading “I.”",
        "Dropped an embed",
        "Left out the cover image: it was stored on the Ghost site, whose address the export does not give",
      ],
    });
  });

  it("says which posts were for members only there, since here every reader can read them", async () => {
    const post = (visibility: string) => ({
      id: visibility,
      uuid: `00000000-0000-4000-8000-0000000000${visibility.length}`,
      title: visibility,
      slug: visibility,
      html: "<p>A line.</p>",
      type: "post",
      status: "published",
      visibility,
      published_at: "2024-01-01T00:00:00.000Z",
    });
    const exported = { db: [{ data: { posts: ["public", "members", "tiers"].map(post) } }] };
    const { poems } = await parseImport({
      fileName: "export.json",
      bytes: text(JSON.stringify(exported)),
    });
    expect(poems.map((poem) => poem.notes)).toEqual([
      [],
      ["It was for signed-in members only on Ghost; here every reader can read it"],
      ["It was for members of some tiers only on Ghost; here every reader can read it"],
    ]);
  });

  it("skips pages and posts with no text, saying why", async () => {
    const { skipped } = await parseImport({
      fileName: "export.json",
      bytes: await bytesOf("ghost-5-export.json"),
    });
    expect(skipped).toEqual([
      { sourceId: "65173b2f2b1d3c0001a0b0d4", title: "About", reason: "A page, not a post" },
      { sourceId: "65173b2f2b1d3c0001a0b0d5", title: "Gallery only", reason: "It has no text" },
    ]);
  });

  it("refuses malformed JSON with its line, and JSON that is not a Ghost export", async () => {
    const broken = '{\n  "db": [\n    {\n      "data": {\n        "posts": [,]\n';
    const error = await parseImport({ fileName: "export.json", bytes: text(broken) }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(ImportFileError);
    expect(error).toMatchObject({
      file: "export.json",
      line: 5,
      message: "export.json, line 5: it is not valid JSON",
    });
    await expect(
      parseImport({ fileName: "export.json", bytes: text('{"posts": []}') }),
    ).rejects.toThrow("export.json is not a Ghost export: it has no db[0].data.posts");
  });
});

describe("Ghost members CSV", () => {
  it("brings members subscribed to emails; deleted, bounced and unsubscribed ones are listed with why", async () => {
    const members = await bytesOf("ghost-members.csv");
    const bounced = text(
      "id,email,name,subscribed_to_emails,created_at,email_disabled\n1,eve@example.com,Eve,true,2023-10-04 11:00:00,true\n",
    );
    const result = await parseImport({ fileName: "members.csv", bytes: members }, "ghost");
    expect(result).toMatchObject({ source: "ghost", poems: [], skipped: [] });
    expect(result.subscribers).toEqual([
      {
        email: "ada@example.com",
        name: "Ada Lind",
        receivingEmail: true,
        subscribedAt: new Date("2023-09-30T11:00:00.000Z"),
        skipReason: null,
      },
      {
        email: "ben@example.org",
        name: 'Ben "the reader" Okafor',
        receivingEmail: true,
        subscribedAt: new Date("2023-10-01T11:00:00.000Z"),
        skipReason: null,
      },
      {
        email: "cleo@example.net",
        name: "Cleo",
        receivingEmail: false,
        subscribedAt: new Date("2023-10-02T11:00:00.000Z"),
        skipReason: "They were not subscribed to emails on Ghost",
      },
      {
        email: "dan@example.com",
        name: "Dan",
        receivingEmail: false,
        subscribedAt: new Date("2023-10-03T11:00:00.000Z"),
        skipReason: "They were deleted on Ghost",
      },
    ]);
    expect((await parseImport({ fileName: "members.csv", bytes: bounced })).subscribers).toEqual([
      {
        email: "eve@example.com",
        name: "Eve",
        receivingEmail: false,
        subscribedAt: new Date("2023-10-04T11:00:00.000Z"),
        skipReason: "Email to them bounced on Ghost",
      },
    ]);
  });

  it("reads the older members CSV, whose column was 'subscribed', when the source is named", async () => {
    const csv = "email,name,subscribed,created_at\nold@example.com,Old,true,2019-01-01 10:00:00\n";
    const { subscribers } = await parseImport(
      { fileName: "members.csv", bytes: text(csv) },
      "ghost",
    );
    expect(subscribers).toMatchObject([
      {
        email: "old@example.com",
        receivingEmail: true,
        subscribedAt: new Date("2019-01-01T10:00:00.000Z"),
      },
    ]);
  });

  it("refuses a row with the wrong number of fields, naming the file and line", async () => {
    const csv =
      "id,email,name,subscribed_to_emails,created_at\n1,a@example.com,A,true,2023-01-01\n2,b@example.com,B,true\n";
    const error = await parseImport({ fileName: "members.csv", bytes: text(csv) }, "ghost").catch(
      (caught) => caught,
    );
    expect(error).toMatchObject({
      file: "members.csv",
      line: 3,
      message: "members.csv, line 3: the row has a different number of fields from the header",
    });
  });
});
