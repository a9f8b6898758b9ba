import { describe, expect, it } from "vitest";
import { matchBookSlots } from "./book-slots.ts";

const titles = (matches: ReturnType<typeof matchBookSlots<{ title: string }>>) =>
  matches.map(({ book }) => book?.title);

describe("the five book slots", () => {
  it("publishes none without server books", () => {
    expect(titles(matchBookSlots([]))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("publishes the first slot with the only server book, whatever its title", () => {
    expect(titles(matchBookSlots([{ title: "Another Title" }]))).toEqual([
      "Another Title",
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("matches by title when the server has several books", () => {
    const matches = matchBookSlots([{ title: "Another Title" }, { title: "the weight we carry " }]);
    expect(titles(matches)).toEqual([
      undefined,
      undefined,
      undefined,
      "the weight we carry ",
      undefined,
    ]);
  });

  it("keeps the slots in order 1 to 5", () => {
    expect(matchBookSlots([]).map(({ slot }) => slot.order)).toEqual([1, 2, 3, 4, 5]);
  });

  it("matches the poet's own slot titles once they are set", () => {
    const poetsTitles = ["Ash", "Salt", "Rain", "Bread", "Stone"];
    const matches = matchBookSlots([{ title: "Salt" }, { title: "Bread" }], poetsTitles);
    expect(matches.map(({ slot }) => slot.title)).toEqual(poetsTitles);
    expect(titles(matches)).toEqual([undefined, "Salt", undefined, "Bread", undefined]);
  });
});
