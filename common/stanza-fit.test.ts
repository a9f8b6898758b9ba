import { describe, expect, it } from "vitest";
import { stanzaLines } from "./stanza.ts";
import { CUT_MARK, type FittedStanza, fitStanza, type StanzaFrame } from "./stanza-fit.ts";

/** A monospaced face, every character half an em wide, so that rows can be counted by hand. */
const measure = (text: string, fontSize: number) => Array.from(text).length * fontSize * 0.5;

/** 600px wide: 30 characters a row at 40px, 60 at 20px; 5 rows high at 40px, 11 at 20px. */
const frame: StanzaFrame = {
  width: 600,
  height: 330,
  lineHeight: 1.5,
  largestFontSize: 40,
  smallestFontSize: 20,
  fontSizeStep: 2,
};

const KITCHEN_TABLE_STANZA_2 =
  "Every chair is a different chair. / One rocks. One remembers a grandfather. / One was found on a curb in the rain / and carried home like a stray";

/** 120 characters, words of ordinary length. */
const longLine = (n: number) =>
  `${`${n}: and the river of the evening goes past the mill`.padEnd(119, " and on")}.`;

function fitInFrame(stanza: string): FittedStanza {
  const fitted = fitStanza(stanzaLines(stanza), frame, measure);
  // Whatever the stanza, every row is drawn whole inside the frame.
  expect(fitted.rows.length * fitted.fontSize * frame.lineHeight).toBeLessThanOrEqual(frame.height);
  for (const row of fitted.rows) {
    expect(row.indent + measure(row.text, fitted.fontSize)).toBeLessThanOrEqual(frame.width);
  }
  return fitted;
}

describe("fitting a stanza to a picture", () => {
  it("sets one short line at the largest size", () => {
    expect(fitInFrame("I kept the ember")).toEqual({
      fontSize: 40,
      rows: [{ text: "I kept the ember", indent: 0 }],
      isCut: false,
    });
  });

  it("steps the size down until a typical stanza fits whole (The Kitchen Table, stanza 2)", () => {
    // At 40 and 38px three of its four lines wrap (7 rows, 5 fit); at 36px a row holds 33
    // characters and the 39 of 'One rocks. One remembers a grandfather.' take two rows of six.
    expect(fitInFrame(KITCHEN_TABLE_STANZA_2)).toEqual({
      fontSize: 36,
      rows: [
        { text: "Every chair is a different chair.", indent: 0 },
        { text: "One rocks. One remembers a", indent: 0 },
        { text: "grandfather.", indent: 72 },
        { text: "One was found on a curb in the", indent: 0 },
        { text: "rain", indent: 72 },
        { text: "and carried home like a stray", indent: 0 },
      ],
      isCut: false,
    });
  });

  it("keeps a line's leading spaces as its indent and hangs its wrapped rows 2em in", () => {
    const fitted = fitInFrame(
      "from the door /    the long way round by the river to the mill and the orchard",
    );
    expect(fitted.fontSize).toBe(40);
    expect(fitted.rows).toEqual([
      { text: "from the door", indent: 0 },
      { text: "the long way round by the", indent: 60 },
      { text: "river to the mill and", indent: 140 },
      { text: "the orchard", indent: 140 },
    ]);
  });

  it("keeps a poet's spaces inside a line and breaks a word wider than a row", () => {
    expect(fitInFrame("a  gap")).toMatchObject({ rows: [{ text: "a  gap", indent: 0 }] });
    expect(fitInFrame("x".repeat(100)).rows).toEqual([
      { text: "x".repeat(30), indent: 0 },
      { text: "x".repeat(26), indent: 80 },
      { text: "x".repeat(26), indent: 80 },
      { text: "x".repeat(18), indent: 80 },
    ]);
  });

  it("cuts twenty lines of 120 characters past the smallest size, at a line, with '…'", () => {
    const lines = Array.from({ length: 20 }, (_, i) => longLine(i));
    const fitted = fitInFrame(lines.join(" / "));
    expect(fitted.fontSize).toBe(20);
    expect(fitted.isCut).toBe(true);
    // Three rows a line, 11 rows high: three whole lines, the third ending in the mark.
    expect(fitted.rows).toHaveLength(9);
    expect(fitted.rows.map((row) => row.text).join(" ")).toBe(
      `${lines.slice(0, 3).join(" ")} ${CUT_MARK}`,
    );
  });

  it("cuts twenty short lines after the eleventh", () => {
    const fitted = fitInFrame(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join(" / "));
    expect(fitted.fontSize).toBe(20);
    expect(fitted.isCut).toBe(true);
    expect(fitted.rows.map((row) => row.text)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `line ${i + 1}`),
      `line 11 ${CUT_MARK}`,
    ]);
  });

  it("cuts the first line's rows when not even one line fits whole", () => {
    const fitted = fitInFrame("word ".repeat(400));
    expect(fitted.isCut).toBe(true);
    expect(fitted.rows).toHaveLength(11);
    expect(fitted.rows.at(-1)?.text).toMatch(/^word( word)* …$/);
  });
});
