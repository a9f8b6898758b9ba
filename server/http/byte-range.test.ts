import { describe, expect, it } from "vitest";
import { parseByteRange } from "./byte-range.ts";

describe("parseByteRange", () => {
  it("reads first bytes, a middle stretch, an open end and a suffix", () => {
    expect(parseByteRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange("bytes=200-299", 1000)).toEqual({ start: 200, end: 299 });
    expect(parseByteRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=-500", 1000)).toEqual({ start: 500, end: 999 });
  });

  it("cuts an end or a suffix at the body's size", () => {
    expect(parseByteRange("bytes=990-5000", 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
  });

  it("is unsatisfiable when no asked byte exists", () => {
    expect(parseByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=5000-6000", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-10", 0)).toBe("unsatisfiable");
  });

  it("leaves the whole body for no header, a malformed one or several ranges", () => {
    for (const header of [
      undefined,
      "",
      "bytes=-",
      "bytes=5-1",
      "items=0-1",
      "bytes=0-1,5-6",
      "bytes=a-b",
      "bytes=0-99999999999999999999",
    ]) {
      expect(parseByteRange(header, 1000), header).toBeUndefined();
    }
  });
});
