export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The one range a `Range` header asks of a body of `size` bytes (RFC 9110 §14.1.2): first bytes
 * (`bytes=0-99`), from an offset (`bytes=100-`) or the last bytes (`bytes=-500`), its end cut at
 * the body's. Undefined for no header, one the grammar does not match or several ranges: the
 * whole body is answered then, as RFC 9110 lets a server do. "unsatisfiable" when none of the
 * asked bytes exist (416).
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): ByteRange | "unsatisfiable" | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? "");
  if (!match) return undefined;
  const [, first = "", last = ""] = match;
  if (first === "") {
    if (last === "") return undefined;
    const suffixLength = Number(last);
    if (suffixLength === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffixLength), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}
