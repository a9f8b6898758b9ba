import { BOOK_SLOTS } from "../../../common/book-slots.ts";
import type { AdminPoem } from "../../../common/schemas/poems.ts";

/** A place to start a new chapbook from: a theme, or a book slot and the theme it gathers. */
export interface ChapbookStart {
  key: string;
  label: string;
  /** The title it suggests: the slot's title, or the theme's name. */
  title: string;
  theme: string;
}

/** The book slots (with the poet's titles for them), then every theme a poem carries. */
export function chapbookStarts(poems: AdminPoem[], bookSlotTitles: string[]): ChapbookStart[] {
  const slots = BOOK_SLOTS.map((slot, index) => {
    const title = bookSlotTitles[index] ?? slot.title;
    return {
      key: `slot-${slot.order}`,
      label: `${title} (${slot.theme})`,
      title,
      theme: slot.theme,
    };
  });
  const themes = [...new Set(poems.flatMap((poem) => poem.tags.map((tag) => tag.name)))]
    .sort((a, b) => a.localeCompare(b))
    .map((theme) => ({ key: `theme-${theme}`, label: theme, title: theme, theme }));
  return [...slots, ...themes];
}

/** A theme's poems as a chapbook's first draft: not drafts, oldest first, as they were written. */
export function poemIdsForTheme(poems: AdminPoem[], theme: string): number[] {
  const name = theme.toLowerCase();
  return poems
    .filter((poem) => !poem.draft && poem.tags.some((tag) => tag.name.toLowerCase() === name))
    .sort((a, b) => a.publishAt.getTime() - b.publishAt.getTime() || a.id - b.id)
    .map((poem) => poem.id);
}
