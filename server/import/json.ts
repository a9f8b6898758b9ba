import { lineAt } from "./text.ts";
import { ImportFileError } from "./types.ts";

/**
 * Where JSON.parse's complaint applies: its messages give a position only for some errors
 * ("Unexpected token" has none), so a failed file is walked again to find the first bad character.
 * Only a file that failed to parse is walked; nesting too deep to walk gives no line.
 */
function jsonErrorOffset(source: string): number | null {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < source.length && " \t\n\r".includes(source[at] ?? "")) at += 1;
  };
  const string = () => {
    at += 1;
    while (at < source.length) {
      const code = source.charCodeAt(at);
      if (code === 34) {
        at += 1;
        return;
      }
      if (code < 32) fail();
      at += code === 92 ? 2 : 1;
    }
    fail();
  };
  const list = (close: string, member: () => void) => {
    at += 1;
    space();
    if (source[at] === close) {
      at += 1;
      return;
    }
    for (;;) {
      member();
      space();
      if (source[at] === ",") at += 1;
      else if (source[at] === close) {
        at += 1;
        return;
      } else fail();
    }
  };
  const member = () => {
    space();
    if (source[at] !== '"') fail();
    string();
    space();
    if (source[at] !== ":") fail();
    at += 1;
    value();
  };
  const value = (): void => {
    space();
    const first = source[at];
    if (first === "{") list("}", member);
    else if (first === "[") list("]", value);
    else if (first === '"') string();
    else {
      const literal = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(
        source.slice(at, at + 400),
      );
      if (!literal) fail();
      at += literal?.[0].length ?? 0;
    }
  };
  try {
    value();
    space();
    return at < source.length ? at : null;
  } catch (offset) {
    return typeof offset === "number" ? offset : null;
  }
}

/** JSON.parse, refusing with the line of the first error. */
export function readJson(source: string, file: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    const offset = jsonErrorOffset(source);
    const line = offset === null ? null : lineAt(source, offset);
    throw new ImportFileError(
      `${file}${line ? `, line ${line}` : ""}: it is not valid JSON`,
      file,
      line,
    );
  }
}
