import { describe, expect, it } from "vitest";
import { buildCoverSrcSet, coverVariantPath } from "./cover-image.ts";

describe("buildCoverSrcSet", () => {
  it("lists every variant of a stored cover whose width is unknown", () => {
    expect(buildCoverSrcSet("/objects/images/abc-1")).toBe(
      "/objects/images/abc-1-480.webp 480w, /objects/images/abc-1-960.webp 960w, /objects/images/abc-1-1440.webp 1440w",
    );
  });

  it("stops below the original's width and offers the original as the widest", () => {
    expect(buildCoverSrcSet("/objects/images/abc", 1080)).toBe(
      "/objects/images/abc-480.webp 480w, /objects/images/abc-960.webp 960w, /objects/images/abc 1080w",
    );
    expect(buildCoverSrcSet("/objects/images/abc", 400)).toBe("/objects/images/abc 400w");
    expect(buildCoverSrcSet("/objects/images/abc", 960)).toBe(
      "/objects/images/abc-480.webp 480w, /objects/images/abc 960w",
    );
  });

  it("gives external URLs and other paths no srcset", () => {
    expect(buildCoverSrcSet("https://example.com/cover.jpg", 1200)).toBeUndefined();
    expect(buildCoverSrcSet("/objects/images/../secret")).toBeUndefined();
    expect(buildCoverSrcSet("/objects/other/abc")).toBeUndefined();
    expect(buildCoverSrcSet("")).toBeUndefined();
    expect(buildCoverSrcSet(null)).toBeUndefined();
  });

  it("names variants beside the original", () => {
    expect(coverVariantPath("/objects/images/abc", 960)).toBe("/objects/images/abc-960.webp");
  });
});
