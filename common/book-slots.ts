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
