/**
 * How a stanza is set on a picture of it. The share card (server/share/stanza-card.ts) and the
 * 'Save image' PNG (app/lib/stanza-image.ts) follow this one rule (docs/product/reading.md):
 * long lines wrap with a hanging indent, then the type size steps down until the stanza fits, and
 * only past the smallest size is the stanza cut, at a line boundary, ending with '…'.
 *
 * Each picture passes in how it measures text, so what is measured here is what it draws.
 */

/** The width in px of `text` drawn at `fontSize` px, as the picture that draws it lays it out. */
export type MeasureText = (text: string, fontSize: number) => number;

/** The room a stanza has on a picture, and the type sizes it may be set in. */
export interface StanzaFrame {
  width: number;
  height: number;
  /** A row's height as a multiple of the font size. */
  lineHeight: number;
  largestFontSize: number;
  smallestFontSize: number;
  fontSizeStep: number;
}

/** One row to draw: a whole line or part of a wrapped one, `indent` px in from the frame's left. */
export interface StanzaRow {
  text: string;
  indent: number;
}

export interface FittedStanza {
  fontSize: number;
  rows: StanzaRow[];
  /** True when even the smallest size could not hold the stanza and its end was left off. */
  isCut: boolean;
}

/** A wrapped line's later rows start this many em further in than the line itself. */
const HANGING_INDENT_EM = 2;
export const CUT_MARK = "…";

/**
 * The largest font size (from `largestFontSize` down by `fontSizeStep`) at which every line,
 * wrapped to the frame's width, fits the frame's height. At the smallest size a stanza still too
 * long keeps as many whole lines as fit, the last ending in '…'.
 */
export function fitStanza(lines: string[], frame: StanzaFrame, measure: MeasureText): FittedStanza {
  for (
    let fontSize = frame.largestFontSize;
    fontSize > frame.smallestFontSize;
    fontSize -= frame.fontSizeStep
  ) {
    const rows = wrapLines(lines, fontSize, frame, measure);
    if (rows) return { fontSize, rows, isCut: false };
  }
  const fontSize = frame.smallestFontSize;
  const rows = wrapLines(lines, fontSize, frame, measure);
  if (rows) return { fontSize, rows, isCut: false };
  return { fontSize, rows: cutStanza(lines, fontSize, frame, measure), isCut: true };
}

/** The rows of as many whole lines as fit at this size, the last ending in '…'. */
function cutStanza(
  lines: string[],
  fontSize: number,
  frame: StanzaFrame,
  measure: MeasureText,
): StanzaRow[] {
  const rowLimit = rowsThatFit(fontSize, frame);
  const wrapped = lines.map((line) => wrapLine(line, fontSize, frame.width, measure));
  let wholeLines = 0;
  let rowsUsed = 0;
  for (const lineRows of wrapped) {
    if (rowsUsed + lineRows.length > rowLimit) break;
    rowsUsed += lineRows.length;
    wholeLines += 1;
  }
  // The '…' goes on the last line kept; when that makes it wrap past the frame, one line fewer.
  for (let kept = wholeLines; kept > 0; kept -= 1) {
    const before = wrapped.slice(0, kept - 1).flat();
    const last = wrapLine(`${lines[kept - 1]} ${CUT_MARK}`, fontSize, frame.width, measure);
    if (before.length + last.length <= rowLimit) return [...before, ...last];
  }
  // Not even the first line fits whole: its rows that fit, the last one cut short with '…'.
  const shown = (wrapped[0] ?? []).slice(0, rowLimit);
  const end = shown.pop();
  if (!end) return shown;
  const withCutMark = (text: string) => `${text.trimEnd()} ${CUT_MARK}`;
  const head = fittingPrefix(end.text, frame.width - end.indent, (text) =>
    measure(withCutMark(text), fontSize),
  );
  return [...shown, { text: withCutMark(head), indent: end.indent }];
}

function rowsThatFit(fontSize: number, frame: StanzaFrame): number {
  // The small allowance keeps a stanza that fills the frame exactly from losing a row to rounding.
  return Math.floor((frame.height + 1e-6) / (fontSize * frame.lineHeight));
}

/** Every line's rows at this size, or undefined when they are more than the frame holds. */
function wrapLines(
  lines: string[],
  fontSize: number,
  frame: StanzaFrame,
  measure: MeasureText,
): StanzaRow[] | undefined {
  const rowLimit = rowsThatFit(fontSize, frame);
  const rows: StanzaRow[] = [];
  for (const line of lines) {
    rows.push(...wrapLine(line, fontSize, frame.width, measure));
    if (rows.length > rowLimit) return undefined;
  }
  return rows;
}

/**
 * A line's rows: broken at spaces (between characters only for a word wider than a row), the
 * line's leading spaces kept as its indent and its later rows hung HANGING_INDENT_EM further in.
 */
function wrapLine(
  line: string,
  fontSize: number,
  width: number,
  measure: MeasureText,
): StanzaRow[] {
  const words = line.trim();
  const leading = line.slice(0, line.length - line.trimStart().length);
  // At most half the width, so that however deep the indentation, a row has room for text.
  const indent = Math.min(leading ? measure(leading, fontSize) : 0, width / 2);
  const hangingIndent = Math.min(indent + HANGING_INDENT_EM * fontSize, width / 2);
  const texts: string[] = [];
  const roomOnRow = () => width - (texts.length === 0 ? indent : hangingIndent);
  const fits = (text: string) => measure(text, fontSize) <= roomOnRow();

  // Words and the spaces after them, alternately; a poet's double spaces inside a line are kept.
  const parts = words.split(/(\s+)/);
  let row = "";
  let spaceBefore = "";
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i] ?? "";
    let candidate = row ? `${row}${spaceBefore}${word}` : word;
    if (row && !fits(candidate)) {
      texts.push(row);
      candidate = word;
    }
    while (!fits(candidate)) {
      const head = fittingPrefix(candidate, roomOnRow(), (prefix) => measure(prefix, fontSize));
      texts.push(head);
      candidate = candidate.slice(head.length);
    }
    row = candidate;
    spaceBefore = parts[i + 1] ?? "";
  }
  texts.push(row);
  return texts.map((text, index) => ({ text, indent: index === 0 ? indent : hangingIndent }));
}

/** The longest start of `text` whose width is within `room`; at least one character. */
function fittingPrefix(text: string, room: number, widthOf: (prefix: string) => number): string {
  const characters = Array.from(text);
  let low = 1;
  let high = characters.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (widthOf(characters.slice(0, middle).join("")) <= room) low = middle;
    else high = middle - 1;
  }
  return characters.slice(0, low).join("");
}
