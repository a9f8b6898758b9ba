import { Parser } from "htmlparser2";
import { stanzaFromLines, stanzaLines } from "../../common/stanza.ts";
import { BLOCKS, DROPPED, droppedByClass, VOID } from "./html-elements.ts";
import { HTML_MAX_DEPTH } from "./limits.ts";
import { storable } from "./text.ts";

/**
 * How a source's newlines read (decision 051): "html" collapses them like a browser; "breaks" is
 * WordPress's classic editor, where a newline is a line break and a blank line a new paragraph;
 * "pre" also keeps every space (a plain file, a <pre> verse block).
 */
export type Whitespace = "html" | "breaks" | "pre";

export interface ReducedPoem {
  stanzas: string[];
  notes: string[];
  /** Why the HTML could not be read as a poem (nested past HTML_MAX_DEPTH), else null. */
  unreadable: string | null;
}

class TooDeep extends Error {}

/** Characters that keep their width where a browser collapses spaces: indentation in HTML. */
const HARD_SPACES = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g;
const TAB_WIDTH = "    ";

interface Paragraph {
  lines: string[];
  /** A real <p>, which counts even when empty: an empty one is a stanza break in line-per-paragraph poems. */
  explicit: boolean;
  /** It held something dropped (an image, an embed): never a line, always a break between stanzas. */
  held: boolean;
}

function describe(kind: string, count: number): string {
  if (count === 1) return `${/^[aeiou]/i.test(kind) ? "an" : "a"} ${kind}`;
  // "image gallery" → "image galleries"; every other kind takes an s.
  return `${count} ${kind.replace(/([^aeiou])y$/, "$1ie")}s`;
}

/**
 * Reduces HTML to a poem's stanzas (decision 051): text only, entities decoded, no markup. A
 * paragraph becomes a stanza and <br> a line; a blank line (two <br>) splits a stanza; when every
 * paragraph is a single line and empty paragraphs stand between them, the empty paragraphs are the
 * stanza breaks. Leading &nbsp; and wide spaces are kept as indentation (ordinary spaces).
 * Headings, images, embeds, scripts and the platforms' widgets are dropped and named in `notes`.
 */
export function reduceHtml(html: string, whitespace: Whitespace = "html"): ReducedPoem {
  const reading: Reading = {
    whitespace,
    paragraphs: [],
    lines: [],
    line: "",
    preDepth: whitespace === "pre" ? 1 : 0,
    dropping: [],
    headingText: "",
    captionText: "",
    dropped: new Map(),
    headings: [],
    captions: [],
    depth: 0,
    held: false,
  };
  const parser = new Parser(
    {
      onopentag: (name, attributes) => openTag(reading, name, attributes),
      ontext: (text) => readText(reading, text),
      onclosetag: (name) => closeTag(reading, name),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.write(html);
    parser.end();
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    const unreadable = `Its HTML is nested more than ${HTML_MAX_DEPTH} elements deep`;
    return { stanzas: [], notes: [], unreadable };
  }
  endParagraph(reading, false);

  const notes = [
    ...reading.headings.map((heading) => `Dropped the heading “${heading}”`),
    ...[...reading.dropped].map(([kind, count]) => `Dropped ${describe(kind, count)}`),
    ...reading.captions.map((caption) => `Dropped the caption “${caption}”`),
  ];
  const { stanzas, grouped, split } = stanzasOf(reading.paragraphs);
  if (grouped) {
    notes.push(
      "Each line was its own paragraph: the empty paragraphs between them were read as stanza breaks",
    );
  }
  // A blank line is the stanza break of plain text; in HTML, two line breaks in one paragraph are.
  if (split > 0 && whitespace === "html") {
    notes.push(
      split === 1
        ? "A paragraph with a blank line in it became two stanzas"
        : `${split} paragraphs with a blank line in them became separate stanzas`,
    );
  }
  return { stanzas, notes, unreadable: null };
}

/** What reading a poem's HTML has gathered so far, element by element. */
interface Reading {
  whitespace: Whitespace;
  paragraphs: Paragraph[];
  /** The paragraph being read: its lines so far, and the line being written. */
  lines: string[];
  line: string;
  preDepth: number;
  /** Elements being dropped, outermost first; a figure is named by what it holds (an image, a video). */
  dropping: { kind: string; isCaption?: boolean }[];
  headingText: string;
  /** A dropped figure's caption is words the poet wrote: the note quotes it. */
  captionText: string;
  dropped: Map<string, number>;
  headings: string[];
  captions: string[];
  /**
   * htmlparser2 keeps its open elements in an array it shifts at the front: nesting thousands deep
   * costs time in the square of the depth, so a poem's HTML is read no deeper than HTML_MAX_DEPTH.
   */
  depth: number;
  held: boolean;
}

function openTag(reading: Reading, name: string, attributes: Record<string, string>): void {
  reading.depth += 1;
  if (reading.depth > HTML_MAX_DEPTH) throw new TooDeep();
  const outer = reading.dropping[0];
  if (outer !== undefined) {
    const inner = DROPPED[name];
    if (outer.kind === "figure" && inner !== undefined && inner !== "figure") outer.kind = inner;
    if (!VOID.has(name)) reading.dropping.push({ kind: "", isCaption: name === "figcaption" });
    return;
  }
  const byClass = droppedByClass(attributes.class ?? "");
  const kind = byClass ?? DROPPED[name];
  if (kind !== undefined) {
    if (BLOCKS.has(name) || byClass || kind === "heading") endParagraph(reading, false);
    reading.held = true;
    reading.headingText = "";
    if (VOID.has(name)) countDropped(reading, kind);
    else reading.dropping.push({ kind });
    return;
  }
  if (name === "br") {
    endLine(reading);
    return;
  }
  if (BLOCKS.has(name)) endParagraph(reading, false);
  if (name === "pre") reading.preDepth += 1;
}

function readText(reading: Reading, text: string): void {
  if (reading.dropping.length > 0) {
    if (reading.dropping[0]?.kind === "heading") reading.headingText += text;
    else if (reading.dropping.some((element) => element.isCaption)) reading.captionText += text;
    return;
  }
  appendText(reading, text);
}

function closeTag(reading: Reading, name: string): void {
  reading.depth -= 1;
  if (reading.dropping.length > 0) {
    if (VOID.has(name)) return;
    const top = reading.dropping.pop();
    if (top?.isCaption) {
      const caption = storable(reading.captionText).replace(/\s+/g, " ").trim();
      if (caption !== "") reading.captions.push(caption);
      reading.captionText = "";
    }
    if (reading.dropping.length > 0 || top === undefined) return;
    const heading = storable(reading.headingText).replace(/\s+/g, " ").trim();
    if (top.kind === "heading" && heading !== "") reading.headings.push(heading);
    else countDropped(reading, top.kind);
    return;
  }
  if (VOID.has(name)) return;
  if (name === "pre") {
    reading.preDepth = Math.max(reading.whitespace === "pre" ? 1 : 0, reading.preDepth - 1);
  }
  if (BLOCKS.has(name)) endParagraph(reading, name === "p");
}

function countDropped(reading: Reading, kind: string): void {
  reading.dropped.set(kind, (reading.dropped.get(kind) ?? 0) + 1);
}

function endLine(reading: Reading): void {
  reading.lines.push(finishLine(reading.line));
  reading.line = "";
}

function endParagraph(reading: Reading, explicit: boolean): void {
  if (reading.line !== "") endLine(reading);
  if (explicit || reading.held || reading.lines.some((text) => text.trim() !== "")) {
    reading.paragraphs.push({ lines: reading.lines, explicit, held: reading.held });
  }
  reading.lines = [];
  reading.held = false;
}

function appendText(reading: Reading, text: string): void {
  if (reading.preDepth > 0 || reading.whitespace === "breaks") {
    const parts = text.split(/\r\n|\r|\n/);
    parts.forEach((part, index) => {
      if (index > 0) endLine(reading);
      reading.line +=
        reading.preDepth > 0
          ? part.replaceAll("\t", TAB_WIDTH).replaceAll(" ", "\u00a0")
          : part.replace(/[ \t\f]+/g, " ");
    });
  } else {
    const collapsed = text.replace(/[ \t\n\r\f]+/g, " ");
    // Two runs of spaces either side of a tag (or of something dropped) show as one.
    reading.line +=
      reading.line.endsWith(" ") && collapsed.startsWith(" ") ? collapsed.slice(1) : collapsed;
  }
}

/**
 * A line as stored: spaces a browser would collapse at its start are dropped, hard spaces become
 * ordinary spaces (indentation), a "<" that could open a tag becomes "‹", the end is trimmed.
 */
function finishLine(raw: string): string {
  return storable(raw)
    .replace(/^[ \t\r\n\f]+/, "")
    .replace(HARD_SPACES, " ")
    .trimEnd();
}

function stanzasOf(paragraphs: Paragraph[]): {
  stanzas: string[];
  grouped: boolean;
  /** How many paragraphs a blank line inside them split into more than one stanza. */
  split: number;
} {
  const isEmpty = (paragraph: Paragraph) => paragraph.lines.every((text) => text.trim() === "");
  const filled = paragraphs.filter((paragraph) => !isEmpty(paragraph));
  const singleLines = filled.every(
    (paragraph) => paragraph.lines.filter((text) => text.trim() !== "").length === 1,
  );
  const firstFilled = paragraphs.findIndex((paragraph) => !isEmpty(paragraph));
  const lastFilled = paragraphs.findLastIndex((paragraph) => !isEmpty(paragraph));
  const spacers = paragraphs
    .slice(firstFilled + 1, Math.max(firstFilled + 1, lastFilled))
    .some((paragraph) => paragraph.explicit && !paragraph.held && isEmpty(paragraph));
  // Line-per-paragraph poems (each line a <p>, an empty <p> between stanzas): group the lines.
  const groups: string[][] = [];
  if (singleLines && spacers) {
    const group: string[] = [];
    for (const paragraph of paragraphs) {
      if (isEmpty(paragraph)) {
        if (paragraph.explicit || paragraph.held) groups.push(group.splice(0));
        continue;
      }
      group.push(...paragraph.lines);
    }
    groups.push(group);
  } else {
    for (const paragraph of filled) groups.push(paragraph.lines);
  }
  const stanzas: string[] = [];
  let split = 0;
  for (const group of groups) {
    const first = stanzas.length;
    let stanza: string[] = [];
    for (const text of [...group, ""]) {
      if (text.trim() === "") {
        if (stanza.length > 0) stanzas.push(stanzaFromLines(stanza));
        stanza = [];
      } else {
        stanza.push(text);
      }
    }
    if (stanzas.length - first > 1) split += 1;
  }
  const grouped = singleLines && spacers && groups.some((group) => group.length > 1);
  return { stanzas, grouped, split };
}

/** One line of text from a title or field that may hold entities or markup ("&#x201C;", "<em>"). */
export function plainText(html: string): string {
  return reduceHtml(html)
    .stanzas.map((stanza) => stanzaLines(stanza).join(" "))
    .join(" ");
}
