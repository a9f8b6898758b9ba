import { describe, expect, it } from "vitest";
import type { AdminPoem } from "../../../common/schemas/poems.ts";
import { chapbookStarts, poemIdsForTheme } from "./chapbook-starts.ts";

const poem = (id: number, tags: string[], publishAt: string, draft = false) =>
  ({
    id,
    draft,
    publishAt: new Date(publishAt),
    tags: tags.map((name, at) => ({ id: at + 1, name })),
  }) as AdminPoem;

const POEMS = [
  poem(1, ["Belonging"], "2026-03-01"),
  poem(2, ["Becoming", "Belonging"], "2026-01-01"),
  poem(3, ["Belonging"], "2026-02-01", true),
  poem(4, ["Winter"], "2026-01-05"),
];

describe("starting a chapbook from a book slot or a theme", () => {
  it("offers the five book slots under the poet's titles, then every theme a poem carries", () => {
    const starts = chapbookStarts(POEMS, ["Tables", "Roads", "Silence", "Weight", "Fire"]);
    expect(starts.slice(0, 5).map((start) => [start.title, start.theme])).toEqual([
      ["Tables", "Belonging"],
      ["Roads", "Pilgrimage"],
      ["Silence", "Memory"],
      ["Weight", "Fatherhood"],
      ["Fire", "Becoming"],
    ]);
    expect(starts.slice(5).map((start) => start.label)).toEqual([
      "Becoming",
      "Belonging",
      "Winter",
    ]);
  });

  it("prefills a theme's poems, oldest first, leaving drafts out", () => {
    expect(poemIdsForTheme(POEMS, "belonging")).toEqual([2, 1]);
    expect(poemIdsForTheme(POEMS, "Pilgrimage")).toEqual([]);
  });
});
