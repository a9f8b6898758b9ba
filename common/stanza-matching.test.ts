import { describe, expect, it } from "vitest";
import { matchStanzas, stanzaSimilarity } from "./stanza-matching.ts";

const A = "The kettle sings / before the house is up";
const B = "My father's hands / were maps of every field";
const C = "We carried light / the way the river carries stones";
const D = "Snow on the sill / and the dog asleep by the door";
const NEW = "A brand new stanza / about the harbour at dusk";

describe("which stanza each earlier stanza became", () => {
  it.each([
    ["unchanged", [A, B, C], [A, B, C], [0, 1, 2]],
    ["a stanza inserted at the top", [A, B, C], [NEW, A, B, C], [1, 2, 3]],
    ["one deleted in the middle", [A, B, C], [A, C], [0, null, 1]],
    ["two swapped", [A, B, C], [A, C, B], [0, 2, 1]],
    ["a one-word edit", [A, B, C], [A, B.replace("every", "each"), C], [0, 1, 2]],
    ["a line mended and a stanza added", [A, B], [`${A} / and the window fogs`, NEW, B], [0, 2]],
    ["two merged into one", [A, B, C], [`${A} / ${B}`, C], [0, 0, 1]],
    [
      "one split into two, its words going to the larger half",
      [`${C} / ${D} / and more`],
      [C, `${D} / and more`],
      [1],
    ],
    ["a full rewrite", [A, B], [NEW, D], [null, null]],
    ["a repeated refrain, each taking its own place", [A, B, A], [A, C, A], [0, null, 2]],
  ])("%s", (_case, earlier, revised, expected) => {
    expect(matchStanzas(earlier, revised)).toEqual(expected);
  });

  it("measures likeness by shared words, ignoring case and punctuation", () => {
    expect(stanzaSimilarity("The Kettle, sings!", "the kettle sings")).toBe(1);
    expect(stanzaSimilarity(A, NEW)).toBeLessThan(0.5);
    expect(stanzaSimilarity(A, `${A} / ${B}`)).toBeGreaterThanOrEqual(0.5);
  });
});
