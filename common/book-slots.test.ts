import { describe, expect, it } from "vitest";
import {
  booksPageWords,
  matchBookSlots,
  ORIGINAL_BOOKS_PAGE,
  storedBooksPage,
} from "./book-slots.ts";

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

describe("the Books page's words", () => {
  it("are the originals until the poet writes theirs, and a cleared text stays cleared", () => {
    expect(booksPageWords(null)).toEqual(ORIGINAL_BOOKS_PAGE);
    const stored = {
      slots: [{ label: "", pullQuote: null, comingSoon: "Soon", isHiddenWhenEmpty: true }],
      closing: null,
    };
    const words = booksPageWords(stored);
    expect(words.slots[0]).toEqual({
      label: "",
      pullQuote: ORIGINAL_BOOKS_PAGE.slots[0]?.pullQuote,
      comingSoon: "Soon",
      isHiddenWhenEmpty: true,
    });
    expect(words.slots[1]).toEqual(ORIGINAL_BOOKS_PAGE.slots[1]);
    expect(words.closing).toBe(ORIGINAL_BOOKS_PAGE.closing);
  });

  it("keep only what differs from the originals, and nothing when nothing does", () => {
    expect(storedBooksPage(ORIGINAL_BOOKS_PAGE)).toBeNull();
    const changed = {
      ...ORIGINAL_BOOKS_PAGE,
      closing: "",
      slots: ORIGINAL_BOOKS_PAGE.slots.map((slot, index) =>
        index === 2 ? { ...slot, label: "Third" } : slot,
      ),
    };
    const stored = storedBooksPage(changed);
    expect(stored?.closing).toBe("");
    expect(stored?.slots[2]).toEqual({
      label: "Third",
      pullQuote: null,
      comingSoon: null,
      isHiddenWhenEmpty: false,
    });
    expect(booksPageWords(stored)).toEqual(changed);
  });
});
