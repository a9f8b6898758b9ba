/** The five fixed book slots, in order (docs/product/reading.md, Books). */
export interface BookSlot {
  order: number;
  title: string;
  theme: string;
  pullQuote: string;
  status: "available" | "coming";
}

export const BOOK_SLOTS: BookSlot[] = [
  {
    order: 1,
    title: "The Shape of Belonging",
    theme: "Belonging",
    pullQuote: "Belonging is not a door that opens. It is a plate set down before you ask.",
    status: "available",
  },
  {
    order: 2,
    title: "The Roads That Make Us",
    theme: "Pilgrimage",
    pullQuote: "The walk home was the same road, and not the same road at all.",
    status: "coming",
  },
  {
    order: 3,
    title: "The Silence That Holds Us",
    theme: "Memory",
    pullQuote: "Nothing is lost. It only changes where it keeps itself.",
    status: "coming",
  },
  {
    order: 4,
    title: "The Weight We Carry",
    theme: "Fatherhood",
    pullQuote: "We run beside you saying we are holding on long after we have opened our hands.",
    status: "coming",
  },
  {
    order: 5,
    title: "The Fire That Shapes Us",
    theme: "Becoming",
    pullQuote: "Let me be the grey that softens into gold.",
    status: "coming",
  },
];

/** The Books page's words around the slots, as the page shows them (docs/product/reading.md, Books). */
export interface BookSlotWords {
  /** The line above the title ('Book 1 · Belonging'); empty: none. */
  label: string;
  /** Empty: no quote. */
  pullQuote: string;
  /** What an empty slot's placeholder cover and button say; empty: the cover's icon alone, no button. */
  comingSoon: string;
  /** A slot with no book in it is left off the page. */
  isHiddenWhenEmpty: boolean;
}

export interface BooksPageWords {
  slots: BookSlotWords[];
  /** The sentence under the slots; empty: none. */
  closing: string;
}

/** The words the page had before the poet wrote theirs, which it shows until they do. */
export const ORIGINAL_BOOKS_PAGE: BooksPageWords = {
  slots: BOOK_SLOTS.map((slot) => ({
    label: `Book ${slot.order} · ${slot.theme}`,
    pullQuote: slot.pullQuote,
    comingSoon: "Coming Soon",
    isHiddenWhenEmpty: false,
  })),
  closing:
    "A library of echoes in five themes: Belonging, Pilgrimage, Memory, Fatherhood, Becoming. Each book gathers the poems that keep returning to one of them.",
};

/**
 * The Books page's words as the site settings keep them: a null text is the original (so it
 * follows the code), an empty one is cleared by the poet.
 */
export interface StoredBooksPage {
  slots: Array<{
    label: string | null;
    pullQuote: string | null;
    comingSoon: string | null;
    isHiddenWhenEmpty: boolean;
  }>;
  closing: string | null;
}

/** The stored words with the originals in place of what the poet has not written. */
export function booksPageWords(stored: StoredBooksPage | null | undefined): BooksPageWords {
  return {
    slots: ORIGINAL_BOOKS_PAGE.slots.map((original, index) => {
      const slot = stored?.slots[index];
      return {
        label: slot?.label ?? original.label,
        pullQuote: slot?.pullQuote ?? original.pullQuote,
        comingSoon: slot?.comingSoon ?? original.comingSoon,
        isHiddenWhenEmpty: slot?.isHiddenWhenEmpty ?? false,
      };
    }),
    closing: stored?.closing ?? ORIGINAL_BOOKS_PAGE.closing,
  };
}

/** The words to keep: each text equal to its original stored as null; nothing changed is null. */
export function storedBooksPage(words: BooksPageWords): StoredBooksPage | null {
  const unlessOriginal = (value: string, original: string) => (value === original ? null : value);
  const stored: StoredBooksPage = {
    slots: ORIGINAL_BOOKS_PAGE.slots.map((original, index) => {
      const slot = words.slots[index] ?? original;
      return {
        label: unlessOriginal(slot.label, original.label),
        pullQuote: unlessOriginal(slot.pullQuote, original.pullQuote),
        comingSoon: unlessOriginal(slot.comingSoon, original.comingSoon),
        isHiddenWhenEmpty: slot.isHiddenWhenEmpty,
      };
    }),
    closing: unlessOriginal(words.closing, ORIGINAL_BOOKS_PAGE.closing),
  };
  const isOriginal =
    stored.closing === null &&
    stored.slots.every(
      (slot) =>
        slot.label === null &&
        slot.pullQuote === null &&
        slot.comingSoon === null &&
        !slot.isHiddenWhenEmpty,
    );
  return isOriginal ? null : stored;
}

/**
 * The server book published in each slot: the one whose title matches the slot's, or, for the
 * first slot, the only book when the server returns exactly one (docs/product/reading.md).
 * `slotTitles` are the poet's titles for the five slots (site settings), the original ones until
 * they set theirs.
 */
export function matchBookSlots<Book extends { title: string }>(
  books: Book[],
  slotTitles: readonly string[] = BOOK_SLOTS.map((slot) => slot.title),
): Array<{ slot: BookSlot; book: Book | undefined }> {
  const normalize = (title: string) => title.trim().toLowerCase();
  const slots = BOOK_SLOTS.map((slot, index) => ({
    ...slot,
    title: slotTitles[index] ?? slot.title,
  }));
  return slots.map((slot, index) => {
    const byTitle = books.find((book) => normalize(book.title) === normalize(slot.title));
    const onlyBook = index === 0 && books.length === 1 ? books[0] : undefined;
    return { slot, book: byTitle ?? onlyBook };
  });
}
