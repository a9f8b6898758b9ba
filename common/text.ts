/**
 * Made once, on first use: building a segmenter costs more than segmenting a whisper with it, and
 * a browser without Intl.Segmenter then fails only where a length is counted, not on every page.
 */
let graphemes: Intl.Segmenter | undefined;

/** Characters as the reader sees them: "é" or "👍🏽" count once, whatever their code units. */
export function visibleLength(text: string): number {
  graphemes ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  let length = 0;
  for (const _ of graphemes.segment(text)) length += 1;
  return length;
}

/** `visibleLength(text) <= max`, without segmenting text that has no more code units than that. */
export function isWithinVisibleLength(text: string, max: number): boolean {
  return text.length <= max || visibleLength(text) <= max;
}

export const UNSTORABLE_TEXT_MESSAGE = "Text must be valid Unicode, without NUL characters";

/**
 * Text the database can keep as it was sent: well-formed UTF-16 (a lone surrogate such as
 * "\ud800" is valid JSON but has no UTF-8 form) and no NUL, which no PostgreSQL text or json value
 * can hold. Non-characters (U+FFFE, U+FFFF) and characters beyond the BMP are fine.
 */
export function isStorableText(text: string): boolean {
  // With the u flag a surrogate pair is one code point: \p{Surrogate} finds only lone halves.
  return !/\p{Surrogate}/u.test(text) && !text.includes("\u0000");
}
