import { describe, expect, it } from "vitest";
import { poemInput } from "./admin.ts";

const poem = (stanzas: string[]) =>
  poemInput.parse({ title: "Doorways", slug: "doorways", stanzas, tagIds: [1] }).stanzas;

describe("a poem's stanzas", () => {
  it("keep their leading spaces, the first line's indentation, and lose only their ends", () => {
    expect(poem(["  the door /       stays open  ", "for you\n"])).toEqual([
      "  the door /       stays open",
      "for you",
    ]);
  });

  it("drop stanzas of nothing but spaces, and need one that is not", () => {
    expect(poem(["   ", "", "a line"])).toEqual(["a line"]);
    expect(() => poem(["  ", ""])).toThrow("At least one stanza is required");
  });
});
