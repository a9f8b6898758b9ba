import { describe, expect, it } from "vitest";
import { clampStanzaIndex, stanzaLines, stanzaText, truncate } from "./stanza.ts";

describe("stanzas", () => {
  it("splits lines on ' / ' markers and keeps a lone slash inside a line", () => {
    expect(stanzaLines("one / two /three / four")).toEqual(["one", "two /three", "four"]);
    expect(stanzaLines({ lines: ["a", " b "] })).toEqual(["a", "b"]);
    expect(stanzaText({ lines: ["a", "b"] })).toBe("a / b");
  });

  it("truncates with '...' only when something was cut", () => {
    expect(truncate("short", 120)).toBe("short");
    expect(truncate("x".repeat(130), 120)).toBe(`${"x".repeat(120)}...`);
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
