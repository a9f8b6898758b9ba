import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { createLocalObjectStore } from "../../server/storage/local.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * The files themselves, checked by the tools printers and e-book stores use
 * (docs/product/chapbook.md): Debian's epubcheck, and poppler's pdfinfo, pdffonts and pdftotext.
 * CI installs both (.ci/run); where one is missing, its checks are skipped, saying so.
 */

const JAR = "/usr/share/java/epubcheck.jar";
/** Debian's /usr/bin/epubcheck is the jar itself, which needs binfmt support; java -jar does not. */
const epubcheck = fs.existsSync(JAR) ? ["java", "-jar", JAR] : ["epubcheck"];
const hasEpubcheck = spawnSync(epubcheck[0] ?? "", [...epubcheck.slice(1), "--version"], {
  encoding: "utf8",
}).stdout?.includes("EPUBCheck");
const hasPoppler = spawnSync("pdfinfo", ["-v"]).status === 0;
if (!hasEpubcheck) console.warn("epubcheck is not installed: the EPUB checks are skipped");
if (!hasPoppler) console.warn("poppler-utils is not installed: the PDF checks are skipped");

/** 30 demo poems: the demo's own, and as many again under new titles. */
const THIRTY = Array.from({ length: 30 }, (_, at) => {
  const poem = DEMO_POEMS[at % DEMO_POEMS.length];
  if (!poem) throw new Error("no demo poems");
  const round = Math.floor(at / DEMO_POEMS.length);
  return round === 0
    ? poem
    : { ...poem, title: `${poem.title} ${round + 1}`, slug: `${poem.slug}-${round + 1}` };
});

// The files are made from what the database answers, the same on both drivers
// (tests/integration/chapbooks.test.ts runs the calls on both): one driver is enough here.
describe.each(drivers.slice(0, 1))("chapbook files on %s", (driver) => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  const make = async (fields: Record<string, unknown>) => {
    const book = await wireAnswer(
      endpoints.createChapbook,
      await api(t.app, "POST", "/api/admin/chapbooks", {
        cookie: admin,
        origin: SITE_ORIGIN,
        body: { poemIds, trim: "a5", downloadable: true, withReadings: false, ...fields },
      }),
    );
    await t.services.chapbookBuilder.buildQueued();
    return book;
  };
  const save = async (
    book: { slug: string; pdfUrl: string; epubUrl: string },
    format: "pdf" | "epub",
  ) => {
    const response = await t.app.request(format === "pdf" ? book.pdfUrl : book.epubUrl);
    expect(response.status).toBe(200);
    const file = path.join(dir, `${book.slug}.${format}`);
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    return file;
  };
  const poemIds: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(driver);
    dir = fs.mkdtempSync(path.join(t.dataDir, "files-"));
    admin = await signIn(t, "poet@example.com", { admin: true });
    const store = createLocalObjectStore(t.dataDir);
    const reading = fs.readFileSync(
      path.resolve(import.meta.dirname, "../../server/db/demo/small-liturgy-reading.mp3"),
    );
    await store.put("audio/demoreading", reading);
    for (const poem of THIRTY) {
      const row = await createPoem(t.db, {
        title: poem.title,
        slug: poem.slug,
        stanzas: poem.stanzas,
        ...(poem.reading && {
          audioUrl: "/objects/audio/demoreading",
          stanzaTimings: poem.reading.stanzaTimings,
          readingDuration: poem.reading.duration,
        }),
      });
      poemIds.push(row.id);
    }
  }, 120_000);
  afterAll(() => t?.close());

  it.skipIf(!hasEpubcheck)(
    "makes an EPUB 3 that epubcheck passes with no errors and no warnings, with and without its readings",
    async () => {
      for (const withReadings of [false, true]) {
        const book = await make({
          title: withReadings ? "Read Aloud" : "Small Fires",
          withReadings,
        });
        const file = await save(book, "epub");
        const result = spawnSync(epubcheck[0] ?? "", [...epubcheck.slice(1), file], {
          encoding: "utf8",
        });
        const report = `${result.stdout}\n${result.stderr}`;
        expect(report, report).toContain("No errors or warnings detected");
        expect(result.status).toBe(0);
        const names = Object.keys(unzipSync(new Uint8Array(fs.readFileSync(file))));
        expect(names.some((name) => name.endsWith(".smil"))).toBe(withReadings);
      }
    },
    400_000,
  );

  it.skipIf(!hasPoppler)(
    "makes a PDF at the trim size, every font embedded, each stanza on one page, and contents that name the pages the poems start on",
    async () => {
      const book = await make({ title: "Printed", trim: "5.5x8.5" });
      const file = await save(book, "pdf");
      const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
      expect(info).toMatch(/Page size:\s+396 x 612 pts/);
      const pageCount = Number(info.match(/Pages:\s+(\d+)/)?.[1]);

      const fonts = execFileSync("pdffonts", [file], { encoding: "utf8" })
        .trim()
        .split("\n")
        .slice(2);
      expect(fonts.length).toBeGreaterThan(0);
      for (const font of fonts) expect(font.split(/\s+/).at(-5), font).toBe("yes");

      const pages = Array.from({ length: pageCount }, (_, at) =>
        execFileSync(
          "pdftotext",
          ["-f", String(at + 1), "-l", String(at + 1), "-layout", file, "-"],
          {
            encoding: "utf8",
          },
        ),
      );
      const flat = (text: string) => text.replace(/\s+/g, " ");
      for (const poem of THIRTY) {
        const start = pages.findIndex((page) => page.trimStart().startsWith(poem.title));
        expect(start, poem.title).toBeGreaterThan(0);
        // The contents line: the title and the page it starts on, which is the folio there.
        const contents = pages.slice(0, start).join("\n");
        expect(flat(contents)).toContain(`${poem.title} ${start + 1} `);
        expect(flat(pages[start] ?? "")).toMatch(new RegExp(` ${start + 1} $`));
        for (const stanza of poem.stanzas) {
          const lines = stanzaLines(stanza).map((line) => line.trim());
          // The first page of the poem on which the stanza begins holds all of its lines.
          const holding = pages
            .slice(start)
            .find((page) => flat(page).includes(lines[0]?.slice(0, 30) ?? ""));
          expect(holding, lines[0]).toBeDefined();
          const page = flat(holding ?? "");
          for (const line of lines) expect(page, line).toContain(line.slice(0, 25));
        }
      }
      // The front cover (typographic without an upload) and its blank inside, then the title
      // page on the right: none of the front matter has a folio.
      expect(flat(pages[0] ?? "").trim()).toBe("Printed Ember Verse");
      expect(flat(pages[1] ?? "").trim()).toBe("");
      expect(flat(pages[2] ?? "").trim()).toBe("Printed Ember Verse");
    },
    400_000,
  );

  it.skipIf(!hasEpubcheck || !hasPoppler)(
    "puts the poet's uploaded cover on the PDF's front and the EPUB's cover, set in the face chosen in the settings",
    async () => {
      const coverId = randomUUID();
      const picture = await sharp({
        create: { width: 800, height: 1200, channels: 3, background: "#3b6e8f" },
      })
        .png()
        .toBuffer();
      await createLocalObjectStore(t.dataDir).put(`images/${coverId}`, picture);
      const settings = await api(t.app, "PUT", "/api/admin/settings", {
        cookie: admin,
        origin: SITE_ORIGIN,
        body: { chapbookFace: "libre-baskerville" },
      });
      expect(settings.status).toBe(200);
      const book = await make({
        title: "Blue Harbour",
        poemIds: poemIds.slice(0, 5),
        coverUrl: `/objects/images/${coverId}`,
      });

      const pdf = await save(book, "pdf");
      const fonts = execFileSync("pdffonts", [pdf], { encoding: "utf8" });
      expect(fonts).toContain("LibreBaskerville");
      expect(fonts).not.toContain("EBGaramond");
      // The cover is the first page's one image, over the whole page.
      const images = execFileSync("pdfimages", ["-list", pdf], { encoding: "utf8" })
        .trim()
        .split("\n")
        .slice(2)
        .map((row) => row.trim().split(/\s+/));
      expect(images.map((row) => row[0])).toEqual(["1"]);
      expect(
        execFileSync("pdftotext", ["-f", "1", "-l", "1", pdf, "-"], { encoding: "utf8" }).trim(),
      ).toBe("");

      const epub = await save(book, "epub");
      const result = spawnSync(epubcheck[0] ?? "", [...epubcheck.slice(1), epub], {
        encoding: "utf8",
      });
      const report = `${result.stdout}\n${result.stderr}`;
      expect(report, report).toContain("No errors or warnings detected");
      const files = unzipSync(new Uint8Array(fs.readFileSync(epub)));
      expect(Object.keys(files)).toEqual(
        expect.arrayContaining([
          "EPUB/cover.jpg",
          "EPUB/fonts/roman.woff",
          "EPUB/fonts/italic.woff",
        ]),
      );
      expect(Object.keys(files)).not.toContain("EPUB/cover.svg");
      const opf = new TextDecoder().decode(files["EPUB/package.opf"]);
      expect(opf).toContain(
        '<item id="cover-image" href="cover.jpg" media-type="image/jpeg" properties="cover-image"/>',
      );
      expect(new TextDecoder().decode(files["EPUB/style.css"])).toContain(
        'font-family: "Libre Baskerville"',
      );
    },
    400_000,
  );
});
