/**
 * Which stanza of a revised poem each earlier stanza became (docs/decisions/023), so that readers'
 * echoes, whispers and saved stanzas stay on their words when the poet revises.
 */

/**
 * Below this similarity an earlier stanza has no counterpart: its readers' words are kept aside
 * (hidden, counted for the poet) rather than moved onto other words. A mended word or line keeps
 * a stanza well above it; half of a merged or split stanza is about 0.67; a rewrite falls below.
 */
export const SAME_STANZA_THRESHOLD = 0.5;

const words = (stanza: string) => stanza.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
const normalized = (stanza: string) => words(stanza).join(" ");

/** Dice's coefficient over the two stanzas' words, counted with repeats: 1 same, 0 disjoint. */
export function stanzaSimilarity(a: string, b: string): number {
  const left = words(a);
  const right = words(b);
  if (left.length + right.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const word of left) counts.set(word, (counts.get(word) ?? 0) + 1);
  let shared = 0;
  for (const word of right) {
    const count = counts.get(word) ?? 0;
    if (count > 0) {
      shared += 1;
      counts.set(word, count - 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}

/**
 * For each earlier stanza, the index of the revised stanza it became, or null when none is like
 * it. Identical text first (in order, each revised stanza taken once), then the most similar
 * revised stanza at or above SAME_STANZA_THRESHOLD, nearer positions breaking ties. Two earlier
 * stanzas may become one (a merge); of a split stanza, the half more like it takes its words.
 */
export function matchStanzas(
  earlier: readonly string[],
  revised: readonly string[],
): (number | null)[] {
  const matches: (number | null)[] = earlier.map(() => null);
  const taken = new Set<number>();
  const revisedText = revised.map(normalized);
  earlier.forEach((stanza, index) => {
    const text = normalized(stanza);
    const same = revisedText.findIndex((candidate, at) => !taken.has(at) && candidate === text);
    if (same === -1) return;
    matches[index] = same;
    taken.add(same);
  });
  earlier.forEach((stanza, index) => {
    if (matches[index] !== null) return;
    let best: { at: number; similarity: number } | undefined;
    revised.forEach((candidate, at) => {
      const similarity = stanzaSimilarity(stanza, candidate);
      if (similarity < SAME_STANZA_THRESHOLD) return;
      const isBetter =
        !best ||
        similarity > best.similarity ||
        (similarity === best.similarity && Math.abs(at - index) < Math.abs(best.at - index));
      if (isBetter) best = { at, similarity };
    });
    matches[index] = best?.at ?? null;
  });
  return matches;
}
