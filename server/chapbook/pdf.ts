import PDFDocument from "pdfkit";
import type { ChapbookFace } from "../../common/schemas/chapbook-faces.ts";
import type { ChapbookTrim } from "../../common/schemas/chapbooks.ts";
import type { ChapbookContent } from "./content.ts";
import { faceFiles, type FaceStyle as Style } from "./faces.ts";

/**
 * A chapbook as a print-ready PDF (docs/decisions/066-chapbook-pdf.md), set with pdfkit in the
 * poet's chosen face, embedded: the trim size as the page (with bleed when asked), a front cover
 * (the poet's upload, or a typographic one; decision 074), front matter without
 * folios, contents with the pages the poems start on (laid out first, then drawn), each poem on a
 * new page with its title kept with its first lines, indentation kept, long lines wrapped with a
 * hanging indent, and a stanza never split when it fits on a page (a longer one breaks between
 * its lines, with a 'stanza continues' mark).
 */

const POINTS_PER_INCH = 72;
const POINTS_PER_MM = 72 / 25.4;
/** Page sizes in points, and the bleed each trim's printers ask for (3 mm, or 0.125 in). */
const TRIMS: Record<ChapbookTrim, { width: number; height: number; bleed: number }> = {
  a5: { width: 148 * POINTS_PER_MM, height: 210 * POINTS_PER_MM, bleed: 3 * POINTS_PER_MM },
  "5.5x8.5": { width: 5.5 * POINTS_PER_INCH, height: 8.5 * POINTS_PER_INCH, bleed: 9 },
  "6x9": { width: 6 * POINTS_PER_INCH, height: 9 * POINTS_PER_INCH, bleed: 9 },
};

/** The body size of each face: Libre Baskerville's larger x-height sets a point smaller. */
const TYPE_SIZES: Record<ChapbookFace, number> = { "eb-garamond": 10.5, "libre-baskerville": 9.5 };
const LEADING = 14;
const TITLE_SIZE = 15;
const STANZA_GAP = LEADING * 0.9;
const CONTINUES = "stanza continues";

/** One row of type on a page: where it goes and in which face. */
interface Row {
  text: string;
  x: number;
  y: number;
  face: Style;
  size: number;
  align?: "right" | "center";
}

interface Page {
  /** The front cover, drawn whole rather than set in rows. */
  isCover?: boolean;
  rows: Row[];
  /** The number printed at its foot, or none on the front matter and blank pages. */
  folio: number | null;
}

/** The text area, and the type set in it. */
interface Frame {
  /** The body size; a wrapped line's later rows hang 2 em in, and a typed space indents ½ em. */
  typeSize: number;
  left: number;
  top: number;
  width: number;
  bottom: number;
  pageWidth: number;
}

/** The text area inside the trim (and the bleed around it). */
function frameOf(trim: ChapbookTrim, bleed: boolean, face: ChapbookFace): Frame {
  const size = TRIMS[trim];
  const outside = bleed ? size.bleed : 0;
  const margin = Math.round(size.width * 0.13);
  return {
    typeSize: TYPE_SIZES[face],
    left: outside + margin,
    top: outside + margin,
    width: size.width - 2 * margin,
    bottom: outside + size.height - margin * 1.25,
    pageWidth: size.width + 2 * outside,
  };
}

type Measure = (text: string, face: Style, size: number) => number;

/** Wraps words to `width`; the rows after the first have `hang` less room. */
function wrap(
  text: string,
  width: number,
  hang: number,
  measure: Measure,
  face: Style,
  size: number,
) {
  const rows: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const room = rows.length === 0 ? width : width - hang;
    const candidate = current ? `${current} ${word}` : word;
    if (current && measure(candidate, face, size) > room) {
      rows.push(current);
      current = word;
    } else current = candidate;
  }
  if (current || rows.length === 0) rows.push(current);
  return rows;
}

/** A verse line as rows, its indentation kept and its wrap hung 2em further in. */
function verseRows(line: string, frame: Frame, measure: Measure) {
  const words = line.trimStart();
  const hang = 2 * frame.typeSize;
  const indent = Math.min(((line.length - words.length) * frame.typeSize) / 2, frame.width / 2);
  return wrap(words, frame.width - indent, hang, measure, "roman", frame.typeSize).map(
    (text, at) => ({ text, dx: indent + (at === 0 ? 0 : hang) }),
  );
}

/** Lays out every page; poems' first pages are known before the contents are drawn. */
class Layout {
  pages: Page[] = [];
  private y = 0;
  private frame: Frame;
  private measure: Measure;
  constructor(frame: Frame, measure: Measure) {
    this.frame = frame;
    this.measure = measure;
  }

  get page(): Page {
    const last = this.pages.at(-1);
    if (!last) throw new Error("no page yet");
    return last;
  }

  newPage(folio: boolean) {
    this.pages.push({ rows: [], folio: folio ? this.pages.length + 1 : null });
    this.y = this.frame.top;
  }

  /** Starts a poem on a new page, on a right-hand (odd) one when asked. */
  startPoem(recto: boolean) {
    this.newPage(true);
    if (recto && this.pages.length % 2 === 0) {
      this.page.folio = null;
      this.newPage(true);
    }
    return this.pages.length;
  }

  room = () => this.frame.bottom - this.y;

  put(text: string, face: Row["face"], size: number, dx = 0, align?: Row["align"]) {
    this.page.rows.push({ text, x: this.frame.left + dx, y: this.y, face, size, align });
    this.y += size === this.frame.typeSize ? LEADING : size * 1.35;
  }

  skip(height: number) {
    this.y += height;
  }

  /** Paragraphs of prose (front and back matter), wrapped, centred when asked. */
  prose(text: string, face: Row["face"], align?: Row["align"]) {
    for (const paragraph of text
      .split(/\n\s*\n/)
      .map((part) => part.trim())
      .filter(Boolean)) {
      const size = this.frame.typeSize;
      for (const row of wrap(paragraph, this.frame.width, 0, this.measure, face, size)) {
        if (this.room() < LEADING) this.newPage(this.page.folio !== null);
        this.put(row, face, size, 0, align);
      }
      this.skip(STANZA_GAP);
    }
  }

  poem(title: string, stanzas: string[][]) {
    for (const row of wrap(title, this.frame.width, 0, this.measure, "medium", TITLE_SIZE)) {
      this.put(row, "medium", TITLE_SIZE);
    }
    this.skip(LEADING);
    stanzas.forEach((lines, index) => {
      const rowsOfLines = lines.map((line) => verseRows(line, this.frame, this.measure));
      const height = rowsOfLines.flat().length * LEADING;
      if (index > 0) this.skip(STANZA_GAP);
      const fullPage = this.frame.bottom - this.frame.top;
      if (height > this.room() && height <= fullPage) this.newPage(true);
      this.stanza(rowsOfLines);
    });
  }

  /** A stanza's lines; one longer than the page breaks between lines, marked at the break. */
  private stanza(rowsOfLines: { text: string; dx: number }[][]) {
    rowsOfLines.forEach((rows, at) => {
      const isLast = at === rowsOfLines.length - 1;
      // Room for the line, and for the mark if the stanza goes on past this page.
      const needed = rows.length * LEADING + (isLast ? 0 : LEADING);
      if (needed > this.room() && this.y > this.frame.top) {
        this.put(CONTINUES, "italic", this.frame.typeSize - 2, 0, "right");
        this.newPage(true);
      }
      for (const row of rows) this.put(row.text, "roman", this.frame.typeSize, row.dx);
    });
  }
}

const CONTENTS_TITLE = "Contents";

/** The pages the contents take: one row per poem title (long titles wrap). */
function contentsRows(content: ChapbookContent, frame: Frame, measure: Measure) {
  return content.poems.map((poem) =>
    wrap(poem.title, frame.width - 36, 0, measure, "roman", frame.typeSize),
  );
}

function frontMatter(layout: Layout, content: ChapbookContent, frame: Frame) {
  // The front cover and its blank inside, so the title page is a right-hand page: a chapbook is
  // often printed and stapled whole, its cover on the outermost sheet (decision 074).
  layout.newPage(false);
  layout.page.isCover = true;
  layout.newPage(false);
  layout.newPage(false);
  layout.skip((frame.bottom - frame.top) * 0.25);
  layout.put(content.title, "medium", TITLE_SIZE * 1.6, 0, "center");
  if (content.subtitle) {
    layout.skip(LEADING / 2);
    layout.put(content.subtitle, "italic", TITLE_SIZE, 0, "center");
  }
  layout.skip(LEADING * 3);
  layout.put(content.author, "roman", TITLE_SIZE, 0, "center");
  layout.newPage(false);
  layout.skip((frame.bottom - frame.top) * 0.6);
  layout.prose(`${content.copyright}\n\n${content.siteUrl}`, "roman");
  if (content.dedication || content.epigraph) {
    layout.newPage(false);
    layout.skip((frame.bottom - frame.top) * 0.2);
    if (content.dedication) layout.prose(content.dedication, "italic", "center");
    // The epigraph stands apart from the dedication, as its own thing on the page.
    if (content.dedication && content.epigraph) layout.skip(LEADING * 4);
    if (content.epigraph) layout.prose(content.epigraph, "italic", "center");
  }
}

/** Lays the book out: front matter, contents (page numbers filled in afterwards), poems, back. */
function layOut(
  content: ChapbookContent,
  frame: Frame,
  measure: Measure,
  onPoem: (done: number) => void,
) {
  const layout = new Layout(frame, measure);
  frontMatter(layout, content, frame);
  layout.newPage(false);
  layout.put(CONTENTS_TITLE, "medium", TITLE_SIZE);
  layout.skip(LEADING);
  const entries: { page: Page; y: number; poem: number }[] = [];
  contentsRows(content, frame, measure).forEach((rows, poem) => {
    if (layout.room() < rows.length * LEADING) layout.newPage(false);
    rows.forEach((row) => {
      layout.put(row, "roman", frame.typeSize);
    });
    const last = layout.page.rows.at(-1);
    entries.push({ page: layout.page, y: last?.y ?? 0, poem });
  });
  const starts = content.poems.map((poem, index) => {
    const start = layout.startPoem(content.rectoStarts);
    layout.poem(poem.title, poem.stanzas);
    onPoem(index + 1);
    return start;
  });
  for (const { page, y, poem } of entries) {
    page.rows.push({
      text: String(starts[poem]),
      x: frame.left,
      y,
      face: "roman",
      size: frame.typeSize,
      align: "right",
    });
  }
  if (content.acknowledgements || content.aboutPoet) {
    layout.newPage(true);
    if (content.acknowledgements) {
      layout.put("Acknowledgements", "medium", TITLE_SIZE);
      layout.skip(LEADING);
      layout.prose(content.acknowledgements, "roman");
    }
    if (content.aboutPoet) {
      layout.skip(LEADING);
      layout.put("About the poet", "medium", TITLE_SIZE);
      layout.skip(LEADING);
      layout.prose(content.aboutPoet, "roman");
    }
  }
  return layout.pages;
}

const COVER_INK = { ground: "#2b2420", rule: "#c9a86a", type: "#f3ead8" };

/**
 * The front cover over the whole page, bleed included: the poet's image cropped to fill it, or
 * else the typographic cover the EPUB also has (title, subtitle and author on a dark ground).
 */
function drawCover(doc: PDFKit.PDFDocument, content: ChapbookContent, frame: Frame) {
  const { width, height } = doc.page;
  if (content.cover) {
    doc.image(Buffer.from(content.cover.jpeg), 0, 0, {
      cover: [width, height],
      align: "center",
      valign: "center",
    });
    return;
  }
  const inset = frame.left / 2;
  doc.rect(0, 0, width, height).fill(COVER_INK.ground);
  doc
    .lineWidth(1.5)
    .rect(inset, inset, width - 2 * inset, height - 2 * inset)
    .stroke(COVER_INK.rule);
  doc.fillColor(COVER_INK.type);
  doc.font("medium").fontSize(TITLE_SIZE * 2);
  doc.text(content.title, frame.left, height * 0.3, { width: frame.width, align: "center" });
  if (content.subtitle) {
    doc.moveDown(0.5).font("italic").fontSize(TITLE_SIZE);
    doc.text(content.subtitle, { width: frame.width, align: "center" });
  }
  doc.font("roman").fontSize(TITLE_SIZE * 1.2);
  doc.text(content.author, frame.left, height * 0.8, { width: frame.width, align: "center" });
  doc.fillColor("black");
}

/** The PDF's bytes. `onPoem` is told as each poem is laid out, for the build's progress. */
export async function makePdf(
  content: ChapbookContent,
  onPoem: (done: number) => void = () => {},
): Promise<Uint8Array> {
  const size = TRIMS[content.trim];
  const frame = frameOf(content.trim, content.bleed, content.face);
  const outside = content.bleed ? size.bleed : 0;
  const doc = new PDFDocument({
    size: [frame.pageWidth, size.height + 2 * outside],
    autoFirstPage: false,
    info: { Title: content.title, Author: content.author, Creator: content.siteUrl },
    lang: "en",
  });
  for (const [style, file] of Object.entries(faceFiles(content.face))) {
    doc.registerFont(style, file);
  }
  const measure: Measure = (text, face, fontSize) =>
    doc.font(face).fontSize(fontSize).widthOfString(text);
  const pages = layOut(content, frame, measure, onPoem);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on("end", () => resolve()));
  for (const page of pages) {
    doc.addPage({ size: [frame.pageWidth, size.height + 2 * outside], margin: 0 });
    if (content.bleed) {
      const trimBox = [outside, outside, outside + size.width, outside + size.height];
      const bleedBox = [0, 0, frame.pageWidth, size.height + 2 * outside];
      // The printer trims at TrimBox; the bleed around it is the page itself.
      Object.assign(doc.page.dictionary.data, { TrimBox: trimBox, BleedBox: bleedBox });
    }
    if (page.isCover) drawCover(doc, content, frame);
    for (const row of page.rows) {
      doc.font(row.face).fontSize(row.size);
      const options = row.align
        ? { width: frame.width, align: row.align, lineBreak: false }
        : { lineBreak: false };
      doc.text(row.text, row.align ? frame.left : row.x, row.y, options);
    }
    if (page.folio !== null) {
      doc.font("roman").fontSize(frame.typeSize - 1);
      doc.text(String(page.folio), frame.left, frame.bottom + LEADING * 1.5, {
        width: frame.width,
        align: "center",
        lineBreak: false,
      });
    }
  }
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
