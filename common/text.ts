/** Characters as the reader sees them: "é" or "👍🏽" count once, whatever their code units. */
export function visibleLength(text: string): number {
  return [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)].length;
}
