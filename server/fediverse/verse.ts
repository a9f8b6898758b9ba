import { stanzaLines } from "../../common/stanza.ts";
import { escapeMarkup } from "../escape.ts";

/**
 * A poem's verse as other servers are sent it (docs/decisions/064-what-a-timeline-shows-of-a-poem.md):
 * the lines as the page sets them, whichever way a stanza was stored, and the part of the poem a
 * Mastodon timeline shows.
 */

/** At most this much verse goes in the summary: Mastodon's own limit for a post. */
export const SUMMARY_VERSE_CHARACTERS = 500;

/** The label before the poem's link at the end of the summary. */
export const READ_THE_POEM = "Read the poem:";

const NO_BREAK_SPACE = "\u00a0";

/**
 * A stanza's lines: split on the ' / ' marker and on any line break stored within a line (an
 * import or the API may keep `\n`), each line's leading spaces, the poet's indentation, made
 * no-break spaces, which no HTML renderer or plain-text formatter collapses.
 */
export function verseLines(stanza: string): string[] {
  return stanzaLines(stanza)
    .flatMap((line) => line.split(/\r?\n/))
    .map((line) => line.trimEnd())
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const words = line.trimStart();
      return NO_BREAK_SPACE.repeat(line.length - words.length) + words;
    });
}

/** A stanza as one HTML paragraph body: each line escaped, broken with `<br>`. */
export function stanzaHtml(stanza: string): string {
  return verseLines(stanza).map(escapeMarkup).join("<br>");
}

/**
 * The verse a timeline shows: the whole poem when it fits in SUMMARY_VERSE_CHARACTERS, else its
 * opening stanza, itself cut after its last whole line that fits (with '…') when even that is
 * longer. Stanzas as lists of lines.
 */
export function timelineVerse(stanzas: string[]): string[][] {
  const poem = stanzas.map(verseLines).filter((lines) => lines.length > 0);
  const length = (lines: string[][]) =>
    lines.reduce((sum, stanza) => sum + stanza.join("\n").length + 2, -2);
  if (length(poem) <= SUMMARY_VERSE_CHARACTERS) return poem;
  const opening: string[] = [];
  for (const line of poem[0] ?? []) {
    if (length([[...opening, line]]) > SUMMARY_VERSE_CHARACTERS - 2) {
      return [[...opening, "…"]];
    }
    opening.push(line);
  }
  return [opening];
}

/**
 * The Article's `summary`, in plain text: the timeline's verse, a blank line between stanzas,
 * then the label before the link Mastodon appends (the poem's page). Plain text because Mastodon
 * formats a converted object's summary as text, turning its line breaks into `<br>` and its blank
 * lines into paragraphs.
 */
export function poemSummary(stanzas: string[]): string {
  return [...timelineVerse(stanzas).map((lines) => lines.join("\n")), READ_THE_POEM].join("\n\n");
}
