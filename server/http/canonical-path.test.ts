import { describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { PAGE_SEGMENTS } from "../../common/site-pages.ts";
import { canonicalPagePath, isCanonicalPath } from "./canonical-path.ts";

describe("one page, one path (docs/decisions/056-one-page-one-path.md)", () => {
  it("names the first segment of every page in app/routes.ts, and only those", () => {
    const firstSegments = new Set(
      routes.flatMap((entry) => {
        const first = entry.path?.split("/")[0];
        return first && first !== "*" ? [first] : [];
      }),
    );
    expect([...PAGE_SEGMENTS].sort()).toEqual([...firstSegments].sort());
  });

  it("leads every other spelling of a page to its one path", () => {
    const spellings: Array<[string, string]> = [
      ["/poetry/thaw/", "/poetry/thaw"],
      ["//", "/"],
      ["///", "/"],
      ["/POETRY/thaw", "/poetry/thaw"],
      ["/Poetry/Thaw", "/poetry/thaw"],
      ["/poetry/%74haw", "/poetry/thaw"],
      ["/poetry//thaw", "/poetry/thaw"],
      ["//poetry/thaw", "/poetry/thaw"],
      ["/about/", "/about"],
      ["/themes/%c3%a9t%c3%a9", "/themes/%C3%A9t%C3%A9"],
      ["/themes/%C3%89T%C3%89", "/themes/%C3%A9t%C3%A9"],
      ["/ember/ARCHIVE", "/ember/archive"],
    ];
    for (const [path, canonical] of spellings) {
      expect(canonicalPagePath(path), path).toBe(canonical);
      expect(isCanonicalPath(path), path).toBe(false);
      expect(canonicalPagePath(canonical), canonical).toBeUndefined();
      expect(isCanonicalPath(canonical), canonical).toBe(true);
    }
  });

  it("leaves alone what is no page's: the API, files, old addresses, what cannot be read", () => {
    for (const path of [
      "/api/Poems/",
      "/objects/images/AbC-12",
      "/2019/05/My-Post/",
      "/poetry/%E0%A4%A",
      "/poetry/a%2Fb",
      "//evil.example/x",
    ]) {
      expect(canonicalPagePath(path), path).toBeUndefined();
    }
    expect(isCanonicalPath("/poetry/./thaw")).toBe(false);
    expect(isCanonicalPath("/poetry/../about")).toBe(false);
  });
});
