import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  clampStanzaIndex,
  cutAtWord,
  stanzaFromLines,
  stanzaLines,
  stanzasFromText,
  stanzasToText,
  stanzaText,
  truncate,
  withIndentationKept,
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

/** Lines of spaces, slashes, backslashes and letters: every shape the ' / ' marker could take. */
const verseLine = fc
  .array(fc.constantFrom(" ", " ", "/", "\\", "a", "b", "\t", "—"), { minLength: 1, maxLength: 12 })
  .map((chars) => chars.join("").trimEnd())
  .filter((line) => line.length > 0);
const indented = fc
  .tuple(fc.nat({ max: 60 }), verseLine)
  .map(([spaces, line]) => " ".repeat(spaces) + line);

describe("a line that holds the marker (docs/decisions/062-a-line-that-holds-the-marker.md)", () => {
  it("reads back any lines joined, indentation and slashes included", () => {
    fc.assert(
      fc.property(fc.array(indented, { minLength: 1, maxLength: 6 }), (lines) => {
        expect(stanzaLines(stanzaFromLines(lines))).toEqual(lines);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps a line's indentation whole in HTML, which collapses spaces", () => {
    const line = `${" ".repeat(45)}far in`;
    expect(withIndentationKept(line)).toBe(`${"\u00a0".repeat(45)}far in`);
    expect(withIndentationKept("flush")).toBe("flush");
  });

  it("writes a line without a marker or an escape to undo as it is", () => {
    expect(stanzaFromLines(["and / or", "   kept", "a/b", "C:\\path", "/ start"])).toBe(
      "and \\/ or /    kept / a/b / C:\\path / / start",
    );
    expect(stanzaFromLines(["ends with /", "\\/ \\\\"])).toBe("ends with \\/ / \\\\/ \\\\\\");
    expect(stanzaLines("ends with \\/ / \\\\/ \\\\\\")).toEqual(["ends with /", "\\/ \\\\"]);
  });

  it("keeps any lines through the poem form", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(indented, { minLength: 1, maxLength: 5 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (poem) => {
          const text = poem.map((lines) => lines.join("\n")).join("\n\n");
          const stanzas = stanzasFromText(text);
          expect(stanzas.map((stanza) => stanzaLines(stanza))).toEqual(poem);
          expect(stanzasToText(stanzas)).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});
