import { describe, expect, it } from "vitest";
import { stanzaImageFileName } from "./stanza-image.ts";

describe("stanza image file name", () => {
  it("is the title lowercased and hyphenated plus the 1-based stanza", () => {
    expect(stanzaImageFileName("The Kitchen Table", 2)).toBe("the-kitchen-table-stanza-2.png");
  });
  it("is stanza-{n}.png without a title", () => {
    expect(stanzaImageFileName(undefined, 1)).toBe("stanza-1.png");
    expect(stanzaImageFileName("  ", 3)).toBe("stanza-3.png");
  });
});
