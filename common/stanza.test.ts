import { describe, expect, it } from "vitest";
import {
  clampStanzaIndex,
  cutAtWord,
  stanzaLines,
  stanzasFromText,
  stanzasToText,
  stanzaText,
  truncate,
} from "./stanza.ts";

describe("stanzas", () => {
  it("splits lines on ' / ' markers and keeps a lone slash inside a line", () => {
    expect(stanzaLines("one / two /three / four")).toEqual(["one", "two /three", "four"]);
    expect(stanzaLines({ lines: ["a", " b "] })).toEqual(["a", " b"]);
    expect(stanzaText({ lines: ["a", "b"] })).toBe("a / b");
  });

  it("keeps a line's leading spaces as indentation and drops blank lines", () => {
    expect(stanzaLines("  first /    second  /   / third")).toEqual([
      "  first",
      "   second",
      "third",
    ]);
  });

  it("truncates with '...' only when something was cut", () => {
    expect(truncate("short", 120)).toBe("short");
    expect(truncate("x".repeat(130), 120)).toBe(`${"x".repeat(120)}...`);
  });

  it("ends an excerpt at a word, never inside one", () => {
    expect(truncate("the lamp in the window", 10)).toBe("the lamp...");
    expect(truncate("the lamp in the window", 8)).toBe("the lamp...");
    expect(truncate("the lamp in the window", 9)).toBe("the lamp...");
    expect(cutAtWord("the lamp in the window", 13)).toBe("the lamp in");
    expect(cutAtWord("short", 120)).toBe("short");
  });

  it.each([
    [2, 5, 2],
    [-3, 5, 0],
    [99, 5, 4],
    ["3", 5, 3],
    ["abc", 5, 0],
    [undefined, 5, 0],
    [1.7, 5, 1],
    [3, 0, 0],
  ])("clamps %j into %i stanzas as %i", (value, count, expected) => {
    expect(clampStanzaIndex(value, count)).toBe(expected);
  });
});

describe("the poem form's stanza text", () => {
  it("splits on blank lines, trims line ends, drops empty stanzas and keeps lines with the marker", () => {
    const text = "first line\nsecond line  \n\n\n   \n\nonly line\r\n\r\n";
    expect(stanzasFromText(text)).toEqual(["first line / second line", "only line"]);
    expect(stanzasFromText(" \n\n ")).toEqual([]);
  });

  it("keeps the spaces a poet typed at the start of a line, the stanza's first line too", () => {
    const text = "  the door\n      stays open\nfor you\n\n    \n\n    even now\r\n  even here  ";
    const stanzas = stanzasFromText(text);
    expect(stanzas).toEqual([
      "  the door /       stays open / for you",
      "    even now /   even here",
    ]);
    expect(stanzas.map((stanza) => stanzaLines(stanza))).toEqual([
      ["  the door", "      stays open", "for you"],
      ["    even now", "  even here"],
    ]);
  });

  it("round-trips stored stanzas, indentation included", () => {
    const stanzas = ["a / b / c", "d", "  e /     f / g"];
    expect(stanzasToText(stanzas)).toBe("a\nb\nc\n\nd\n\n  e\n    f\ng");
    expect(stanzasFromText(stanzasToText(stanzas))).toEqual(stanzas);
  });
});
