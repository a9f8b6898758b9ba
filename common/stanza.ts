import { STANZA_LINE_MARKER } from "./constants.ts";

/** A stanza as the theme view may receive it: a text, or an object with lines. */
export type StanzaLike = string | { lines: string[] };

/**
 * A stanza is held (in the database and in the API) as its lines joined by the ' / ' marker. A
 * line that would read as two there is escaped with a backslash (docs/decisions/062-a-line-that-holds-the-marker.md):
 * a slash with a space before it and a space or the line's end after it is written '\/', and a
 * backslash before a slash or a backslash is written '\\'. Every other line is written as it is.
 * This module alone splits and joins stanza lines.
 */
export function stanzaFromLines(lines: readonly string[]): string {
  return lines.map(escapeLine).join(STANZA_LINE_MARKER);
}

function escapeLine(line: string): string {
  let escaped = "";
  for (let at = 0; at < line.length; at++) {
    const char = line[at] as string;
    const next = line[at + 1];
    if (char === "\\" && (next === "\\" || next === "/")) escaped += "\\\\";
    else if (char === "/" && line[at - 1] === " " && (next === " " || next === undefined)) {
      escaped += "\\/";
    } else escaped += char;
  }
  return escaped;
}

/** A stanza's lines exactly as they were joined: markers split, escapes undone. */
function splitLines(stanza: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (let at = 0; at < stanza.length; at++) {
    const char = stanza[at] as string;
    const next = stanza[at + 1];
    if (char === "\\" && (next === "\\" || next === "/")) {
      line += next;
      at += 1;
    } else if (stanza.startsWith(STANZA_LINE_MARKER, at)) {
      lines.push(line);
      line = "";
      at += STANZA_LINE_MARKER.length - 1;
    } else line += char;
  }
  lines.push(line);
  return lines;
}

/**
 * The lines of a stanza: ' / ' markers become line breaks. Only each line's end is trimmed: its
 * leading spaces are the poet's indentation (docs/product/reading.md, Stanza viewer).
 */
export function stanzaLines(stanza: StanzaLike): string[] {
  const lines = typeof stanza === "string" ? splitLines(stanza) : stanza.lines;
  return lines.map((line) => line.trimEnd()).filter((line) => line.length > 0);
}

/**
 * A line for HTML, which collapses spaces (mail, fediverse posts): its indentation as no-break
 * spaces, so all of it shows.
 */
export function withIndentationKept(line: string): string {
  const words = line.trimStart();
  return "\u00a0".repeat(line.length - words.length) + words;
}

/**
 * A stanza as one line of plain text, for previews, descriptions and share text: read by people,
 * never split again, so a line's own ' / ' is shown as it is.
 */
export function stanzaText(stanza: StanzaLike): string {
  return stanzaLines(stanza).join(STANZA_LINE_MARKER);
}

/**
 * At most `length` characters of `text`, ending at the end of a word: a cut that falls inside a
 * word goes back to the space before it (a single word longer than `length` is cut as it is).
 */
export function cutAtWord(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  const isInsideWord = /\S/.test(text[length] ?? " ") && /\S$/.test(cut);
  const lastSpace = cut.search(/\s\S*$/);
  return (isInsideWord && lastSpace > 0 ? cut.slice(0, lastSpace) : cut).trimEnd();
}

/**
 * Cuts text to at most `length` characters at a word's end, adding '...' when anything was cut
 * (poem card preview).
 */
export function truncate(text: string, length: number): string {
  return text.length > length ? `${cutAtWord(text, length)}...` : text;
}

/** A requested stanza position held between the first and the last stanza; 0 when not a number. */
export function clampStanzaIndex(value: unknown, stanzaCount: number): number {
  const index = typeof value === "number" ? value : Number.parseInt(String(value ?? ""), 10);
  if (!Number.isFinite(index) || stanzaCount === 0) return 0;
  return Math.min(Math.max(Math.trunc(index), 0), stanzaCount - 1);
}

/**
 * The poem form's stanza text (docs/product/admin.md, Poems): stanzas separated by blank lines,
 * empty ones dropped; a stanza's own lines are joined with the ' / ' line marker. Only each line's
 * end is trimmed: the spaces a poet types at the start of a line are its indentation.
 */
export function stanzasFromText(text: string): string[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((stanza) =>
      stanzaFromLines(
        stanza
          .split(/\r?\n/)
          .map((line) => line.trimEnd())
          .filter((line) => line.length > 0),
      ),
    )
    .filter((stanza) => stanza.length > 0);
}

/** Stored stanzas as the form shows them: one line per line, a blank line between stanzas. */
export function stanzasToText(stanzas: string[]): string {
  return stanzas.map((stanza) => stanzaLines(stanza).join("\n")).join("\n\n");
}
