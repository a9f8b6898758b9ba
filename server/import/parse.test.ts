import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  generatedEmail,
  generatedReceivesEmail,
  generatedStanzas,
  generatedTitle,
  ghostExport,
  ghostMembers,
  plainFilesZip,
  substackExport,
  wordpressExport,
  writeImportFiles,
} from "../../tests/helpers/import-files.ts";
import { IMPORT_MAX_BYTES } from "./limits.ts";
import { parseImport } from "./parse.ts";
import { ImportFileError, type ImportSource } from "./types.ts";

// Telling exports apart, and refusing what is none (docs/product/import.md).
const FIXTURES = path.join(import.meta.dirname, "../../tests/fixtures/import");
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0,
]);

async function refusal(promise: Promise<unknown>): Promise<ImportFileError> {
  const error = await promise.catch((caught) => caught);
  expect(error).toBeInstanceOf(ImportFileError);
  return error as ImportFileError;
}

describe("parseImport", () => {
  it("detects each source from the content, whatever the file is called", async () => {
    const detected = async (bytes: Uint8Array) =>
      (await parseImport({ fileName: "download", bytes })).source;
    expect(await detected(substackExport({ poems: 1, subscribers: 1 }))).toBe("substack");
    expect(await detected(strToU8(ghostExport({ poems: 1, subscribers: 0 })))).toBe("ghost");
    expect(await detected(strToU8(ghostMembers({ poems: 0, subscribers: 1 })))).toBe("ghost");
    expect(await detected(strToU8(wordpressExport({ poems: 1, subscribers: 0 })))).toBe(
      "wordpress",
    );
    expect(await detected(plainFilesZip({ poems: 1, subscribers: 0 }))).toBe("files");
  });

  it("refuses a file of the wrong kind, naming what it is and what was expected", async () => {
    expect(
      (await refusal(parseImport({ fileName: "export.zip", bytes: PNG }, "substack"))).message,
    ).toBe("export.zip is a PNG file; expected a Substack export (.zip)");
    expect((await refusal(parseImport({ fileName: "photo.png", bytes: PNG }))).message).toBe(
      "photo.png is a PNG file; expected a Substack, Ghost, WordPress or plain-text export",
    );
    const wxr = await readFile(path.join(FIXTURES, "wordpress-6.xml"));
    expect(
      (await refusal(parseImport({ fileName: "site.xml", bytes: wxr }, "ghost"))).message,
    ).toBe("site.xml is an XML file; expected a Ghost export (.json) or Ghost members file (.csv)");
    const members = await readFile(path.join(FIXTURES, "ghost-members.csv"));
    expect(
      (await refusal(parseImport({ fileName: "members.csv", bytes: members }, "substack"))).message,
    ).toBe("members.csv is a Ghost members file; expected a Substack export (.zip)");
    expect(
      (
        await refusal(
          parseImport(
            { fileName: "poems.zip", bytes: plainFilesZip({ poems: 1, subscribers: 0 }) },
            "wordpress",
          ),
        )
      ).message,
    ).toBe("poems.zip holds nothing that is a WordPress export (WXR .xml)");
    expect(
      (await refusal(parseImport({ fileName: "notes.csv", bytes: strToU8("a,b\n1,2\n") }))).message,
    ).toBe(
      "notes.csv is not an export this site reads; expected a Substack, Ghost, WordPress or plain-text export",
    );
    expect(
      (
        await refusal(
          parseImport({ fileName: "posts.csv", bytes: strToU8("post_id,title\n1.a,A\n") }),
        )
      ).message,
    ).toBe(
      "posts.csv is Substack's list of posts without their text: give the whole Substack export (.zip)",
    );
    expect(
      (
        await refusal(
          parseImport({ fileName: "x.json", bytes: new Uint8Array([0x7b, 0xff, 0xfe]) }),
        )
      ).message,
    ).toBe("x.json is not a text file (it is not UTF-8)");
  });

  it("reads exports packed in a zip (WordPress.com's zip of WXR files), and refuses two platforms in one zip", async () => {
    const wxr = (poems: number) => strToU8(wordpressExport({ poems, subscribers: 0 }));
    const packed = zipSync({
      "poet.wordpress.com-2026-11-26/poet.wordpress.2026-11-26.000.xml": wxr(2),
    });
    const result = await parseImport({
      fileName: "poet.wordpress.com-2026-11-26.zip",
      bytes: packed,
    });
    expect(result.source).toBe("wordpress");
    expect(result.poems.map((poem) => poem.title)).toEqual([generatedTitle(1), generatedTitle(2)]);
    const mixed = zipSync({
      "a.xml": wxr(1),
      "b.json": strToU8(ghostExport({ poems: 1, subscribers: 0 })),
    });
    expect((await refusal(parseImport({ fileName: "both.zip", bytes: mixed }))).message).toBe(
      "both.zip holds exports of two platforms (wordpress and ghost); import them one at a time",
    );
  });

  it(`refuses a file over ${IMPORT_MAX_BYTES / 1_048_576} MB before reading it, and an empty one`, async () => {
    const error = await refusal(
      parseImport({ fileName: "../../huge.zip", bytes: new Uint8Array(IMPORT_MAX_BYTES + 1) }),
    );
    expect(error.message).toBe("huge.zip is larger than 50 MB, the most an import reads");
    expect(error.file).toBe("huge.zip");
    expect(
      (await refusal(parseImport({ fileName: "empty.zip", bytes: new Uint8Array(0) }))).message,
    ).toBe("empty.zip is empty");
  });

  it.each<[ImportSource, () => Uint8Array]>([
    ["substack", () => substackExport({ poems: 40, subscribers: 300 })],
    ["ghost", () => strToU8(ghostExport({ poems: 40, subscribers: 0 }))],
    ["wordpress", () => strToU8(wordpressExport({ poems: 40, subscribers: 0 }))],
    ["files", () => plainFilesZip({ poems: 40, subscribers: 0 })],
  ])("reads generated %s exports back poem for poem", async (source, make) => {
    const result = await parseImport({ fileName: "generated", bytes: make() }, source);
    expect(result.skipped).toEqual([]);
    expect(result.poems).toHaveLength(40);
    result.poems.forEach((poem, index) => {
      expect(poem.title).toBe(generatedTitle(index + 1));
      expect(poem.stanzas).toEqual(generatedStanzas(index + 1).map((lines) => lines.join(" / ")));
      expect(poem.state).toBe("published");
    });
    if (source === "substack") {
      expect(
        result.subscribers
          .filter((subscriber) => subscriber.receivingEmail)
          .map((subscriber) => subscriber.email),
      ).toEqual(
        Array.from({ length: 300 }, (_, index) => index + 1)
          .filter(generatedReceivesEmail)
          .map(generatedEmail),
      );
    }
  });

  it("writes every format into a folder, each read back with its source detected", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "import-files-"));
    try {
      const paths = await writeImportFiles(folder, { poems: 2, subscribers: 3 });
      const sources: Record<string, ImportSource> = {};
      for (const [key, file] of Object.entries(paths)) {
        const result = await parseImport({
          fileName: path.basename(file),
          bytes: await readFile(file),
        });
        sources[key] = result.source;
        expect(result.poems.length + result.subscribers.length).toBeGreaterThan(0);
      }
      expect(sources).toEqual({
        substack: "substack",
        ghost: "ghost",
        ghostMembers: "ghost",
        wordpress: "wordpress",
        files: "files",
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("answers anything at all, a damaged export included, with a result or an ImportFileError: never a crash", async () => {
    const zip = substackExport({ poems: 3, subscribers: 3 });
    const wxr = strToU8(wordpressExport({ poems: 2, subscribers: 0 }));
    const json = strToU8(ghostExport({ poems: 2, subscribers: 0 }));
    const members = strToU8(ghostMembers({ poems: 0, subscribers: 4 }));
    const plain = plainFilesZip({ poems: 3, subscribers: 0 });
    const damaged = (base: Uint8Array) =>
      fc
        .array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        })
        .map((changes) => {
          const copy = base.slice();
          for (const [at, value] of changes) copy[at] = value;
          return copy;
        });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 300 }),
          damaged(zip),
          damaged(wxr),
          damaged(json),
          damaged(members),
          damaged(plain),
        ),
        fc.constantFrom<ImportSource | undefined>(
          undefined,
          "substack",
          "ghost",
          "wordpress",
          "files",
        ),
        async (bytes, source) => {
          try {
            await parseImport({ fileName: "upload", bytes }, source);
          } catch (error) {
            expect(error).toBeInstanceOf(ImportFileError);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
