import { STANZA_LINE_MARKER } from "./constants.ts";

/** A stanza as the theme view may receive it: a text, or an object with lines. */
export type StanzaLike = string | { lines: string[] };

/**
 * The lines of a stanza: ' / ' markers become line breaks. Only each line's end is trimmed: its
 * leading spaces are the poet's indentation (docs/product/reading.md, Stanza viewer).
 */
export function stanzaLines(stanza: StanzaLike): string[] {
  const lines = typeof stanza === "string" ? stanza.split(STANZA_LINE_MARKER) : stanza.lines;
  return lines.map((line) => line.trimEnd()).filter((line) => line.length > 0);
}

/** A stanza as one line of plain text, for previews, descriptions and share text. */
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
 * empty ones dropped; a stanza's own lines are kept with the ' / ' line marker. Only each line's
 * end is trimmed: the spaces a poet types at the start of a line are its indentation.
 */
export function stanzasFromText(text: string): string[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((stanza) =>
      stanza
        .split(/\r?\n/)
        .map((line) => line.trimEnd())
        .filter((line) => line.length > 0)
        .join(STANZA_LINE_MARKER),
    )
    .filter((stanza) => stanza.length > 0);
}

/** Stored stanzas as the form shows them: one line per line, a blank line between stanzas. */
export function stanzasToText(stanzas: string[]): string {
  return stanzas.map((stanza) => stanzaLines(stanza).join("\n")).join("\n\n");
}
