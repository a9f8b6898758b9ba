import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseImport } from "./parse.ts";
import { ImportFileError } from "./types.ts";

// A WordPress 6 WXR export, written to its published format (docs/product/import.md).
const WXR = path.join(import.meta.dirname, "../../tests/fixtures/import/wordpress-6.xml");
const text = (value: string) => new TextEncoder().encode(value);

async function refusal(xml: string): Promise<ImportFileError> {
  const error = await parseImport({ fileName: "site.WordPress.xml", bytes: text(xml) }).catch(
    (caught) => caught,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return error;
}

describe("WordPress WXR", () => {
  it("brings a block-editor post: paragraphs, a verse block's indentation, tags, featured image, both old paths", async () => {
    const result = await parseImport({
      fileName: "saltlines.WordPress.2023-12-01.xml",
      bytes: await readFile(WXR),
    });
    expect(result.source).toBe("wordpress");
    expect(result.poems[0]).toEqual({
      site: "saltlines.example",
      sourceId: "https://saltlines.example/?p=12",
      legacyId: "12",
      audioUrl: null,
      chosen: true,
      title: "Low Tide – Morning",
      slug: "low-tide",
      stanzas: [
        "The sea goes out / to think about it,",
        "and leaves us /     the long argument /         of the sand.",
      ],
      tags: ["sea", "Mornings & Tides"],
      state: "published",
      publishAt: new Date("2023-03-04T09:15:00.000Z"),
      coverUrl: "https://saltlines.example/wp-content/uploads/2023/03/tide.jpg",
      coverAlt: "Wet sand at low tide",
      oldPaths: ["/2023/03/04/low-tide/", "/?p=12"],
      notes: ["Dropped an image", "Dropped an embed"],
    });
  });

  it("reads a classic-editor post's newlines as lines, dates its old path in the site's own time, drops markup", async () => {
    const { poems } = await parseImport(
      { fileName: "export.xml", bytes: await readFile(WXR) },
      "wordpress",
    );
    expect(poems[1]).toMatchObject({
      title: "Midnight Ferry",
      stanzas: [
        "The ferry leaves at twelve, / its lights a sentence / no one finishes.",
        "   We stand at the rail /    and do not finish it either.",
      ],
      publishAt: new Date("2023-05-31T23:30:00.000Z"),
      oldPaths: ["/2023/06/01/midnight-ferry/", "/?p=20"],
      notes: ["Dropped the heading “II”", "Dropped a script"],
    });
  });

  it("keeps drafts drafts (no date, no slug) and future posts scheduled", async () => {
    const { poems } = await parseImport({ fileName: "export.xml", bytes: await readFile(WXR) });
    expect(poems[2]).toMatchObject({
      title: "Gulls (draft)",
      state: "draft",
      slug: null,
      publishAt: null,
      oldPaths: [],
    });
    expect(poems[3]).toMatchObject({
      title: "Equinox",
      state: "scheduled",
      publishAt: new Date("2030-03-20T06:00:00.000Z"),
      oldPaths: [],
    });
  });

  it("skips pages and attachments, saying why", async () => {
    const { skipped } = await parseImport({ fileName: "export.xml", bytes: await readFile(WXR) });
    expect(skipped).toEqual([
      { sourceId: "2", title: "About", reason: "A page, not a post" },
      { sourceId: "15", title: "tide", reason: "A media file, not a post" },
    ]);
  });

  it("refuses billion laughs without expanding an entity, naming the line", async () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n]>\n<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>&lol3;</title></channel></rss>`;
    const error = await refusal(laughs);
    expect(error.message).toBe(
      "site.WordPress.xml, line 2: it declares a document type (<!DOCTYPE>), which an import never reads: entities could expand without end or read other files",
    );
    expect(error.line).toBe(2);
  });

  it("dates a published post whose post_date_gmt WordPress left as 0000-00-00 by its post_date in the site's zone", async () => {
    const wxr = await readFile(WXR, "utf8");
    const zeroed = wxr.replace(
      "<wp:post_date_gmt><![CDATA[2023-03-04 09:15:00]]></wp:post_date_gmt>",
      "<wp:post_date_gmt><![CDATA[0000-00-00 00:00:00]]></wp:post_date_gmt>",
    );
    // The site's zone (an hour ahead of UTC) is told by the export's other posts.
    const { poems } = await parseImport({ fileName: "export.xml", bytes: text(zeroed) });
    expect(poems[0]).toMatchObject({
      title: "Low Tide – Morning",
      publishAt: new Date("2023-03-04T09:15:00.000Z"),
      oldPaths: ["/2023/03/04/low-tide/", "/?p=12"],
    });
    expect(poems[0]?.notes.join()).not.toMatch(/date/);

    // No post tells the zone: read as UTC, and said so.
    const allZeroed = wxr.replace(
      /<wp:post_date_gmt><!\[CDATA\[[^\]]*\]\]><\/wp:post_date_gmt>/g,
      "<wp:post_date_gmt><![CDATA[0000-00-00 00:00:00]]></wp:post_date_gmt>",
    );
    const guessed = (await parseImport({ fileName: "export.xml", bytes: text(allZeroed) })).poems;
    expect(guessed[0]).toMatchObject({ publishAt: new Date("2023-03-04T10:15:00.000Z") });
    expect(guessed[0]?.notes).toContain(
      "Its date was saved without a time zone: it is read as UTC, since no other post of the export tells the site's zone",
    );
  });

  it("says a post protected by a password there can be read by every reader here", async () => {
    const xml = (await readFile(WXR, "utf8")).replace(
      "<wp:post_password><![CDATA[]]></wp:post_password>",
      "<wp:post_password><![CDATA[enter]]></wp:post_password>",
    );
    const { poems } = await parseImport({ fileName: "export.xml", bytes: text(xml) });
    expect(poems[0]?.notes).toContain(
      "It was protected by a password on WordPress; here every reader can read it",
    );
    expect(poems[1]?.notes).not.toContain(
      "It was protected by a password on WordPress; here every reader can read it",
    );
  });

  it("refuses an external entity, and one hidden after comments", async () => {
    const external = `<?xml version="1.0"?>\n<!-- exported -->\n<!-- twice -->\n<!DOCTYPE rss [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><item><title>&secret;</title></item></channel></rss>`;
    expect((await refusal(external)).line).toBe(4);
  });

  it("reads a post whose CDATA holds <!DOCTYPE> and <!ENTITY> as its text, not as a document type", async () => {
    const xml = (await readFile(WXR, "utf8")).replace(
      "The sea goes out",
      "The sea goes out &lt;!DOCTYPE&gt; ]]><![CDATA[<!ENTITY x>",
    );
    const { poems } = await parseImport({ fileName: "export.xml", bytes: text(xml) });
    expect(poems[0]?.stanzas[0]).toBe("The sea goes out ‹!DOCTYPE> / to think about it,");
  });

  it("refuses XML that is not well formed with its line, and XML that is not a WordPress export", async () => {
    const broken = await refusal(
      '<?xml version="1.0"?>\n<rss xmlns:wp="http://wordpress.org/export/1.2/">\n<channel>\n<item></channel>\n</rss>',
    );
    expect(broken.line).toBe(4);
    expect(broken.message).toMatch(/^site\.WordPress\.xml, line 4: it is not well-formed XML/);
    expect((await refusal('<?xml version="1.0"?><feed><entry/></feed>')).message).toBe(
      "site.WordPress.xml is XML but not a WordPress export (no rss channel with the wp: namespace)",
    );
  });
});
