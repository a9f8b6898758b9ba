import { describe, expect, it } from "vitest";
import { compareStanzas } from "./version-diff.ts";

const ONE = "The kettle sings / before the house is up";
const TWO = "My father's hands / were maps of every field";
const THREE = "We carried light / the way the river carries stones";
const NEW = "A brand new stanza / about the harbour at dusk";

describe("compareStanzas", () => {
  it("pairs each stanza of the version with the live stanza it matches", () => {
    const mended = TWO.replace("every", "each");
    expect(compareStanzas([ONE, mended, THREE], [ONE, TWO, THREE])).toEqual([
      { live: ONE, version: ONE, change: "unchanged" },
      { live: mended, version: TWO, change: "changed" },
      { live: THREE, version: THREE, change: "unchanged" },
    ]);
  });

  it("shows what a restore adds and removes, each where it stands", () => {
    expect(compareStanzas([ONE, NEW, THREE], [ONE, TWO, THREE])).toEqual([
      { live: ONE, version: ONE, change: "unchanged" },
      { live: null, version: TWO, change: "added" },
      { live: NEW, version: null, change: "removed" },
      { live: THREE, version: THREE, change: "unchanged" },
    ]);
    expect(compareStanzas([ONE, TWO], [ONE])).toEqual([
      { live: ONE, version: ONE, change: "unchanged" },
      { live: TWO, version: null, change: "removed" },
    ]);
  });

  it("counts a line moved in or out as a change: indentation is the poet's", () => {
    const indented = "The kettle sings /     before the house is up";
    expect(compareStanzas([indented, TWO], [ONE, TWO])).toEqual([
      { live: indented, version: ONE, change: "changed" },
      { live: TWO, version: TWO, change: "unchanged" },
    ]);
  });
});
