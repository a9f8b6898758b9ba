import { describe, expect, it } from "vitest";
import { SEARCH_QUERY_TOO_LONG, searchInput, searchQueryFromPage } from "./search.ts";

describe("the search page's query", () => {
  it("is trimmed, and blank or absent is empty", () => {
    expect(searchQueryFromPage("  river  ")).toBe("river");
    expect(searchQueryFromPage(" \t ")).toBe("");
    expect(searchQueryFromPage(null)).toBe("");
  });

  it("keeps the first 200 characters, counting an emoji once", () => {
    expect(searchQueryFromPage("a".repeat(250))).toBe("a".repeat(200));
    expect(searchQueryFromPage("🔥".repeat(250))).toBe("🔥".repeat(200));
  });

  it("drops what no database text can hold", () => {
    expect(searchQueryFromPage("riv\u0000er\ud800")).toBe("river");
  });
});

describe("GET /api/search's input", () => {
  it("refuses q over 200 characters with a message naming q", () => {
    const result = searchInput.safeParse({ q: "a".repeat(201) });
    expect(result.error?.issues[0]?.message).toBe(SEARCH_QUERY_TOO_LONG);
    expect(searchInput.parse({ q: ` ${"🔥".repeat(200)} ` }).q).toBe("🔥".repeat(200));
  });

  it("takes 10 results a group unless told, from 1 to 50", () => {
    expect(searchInput.parse({})).toEqual({ q: "", limit: 10 });
    expect(searchInput.parse({ limit: "50" }).limit).toBe(50);
    for (const limit of ["0", "51", "x"])
      expect(searchInput.safeParse({ limit }).success).toBe(false);
  });
});
