import { z } from "zod/mini";
import { dateTime } from "./answer.ts";

export const bookPage = z.object({ title: z.string(), content: z.string() });
export type BookPage = z.output<typeof bookPage>;

/** A book as every read and every admin write answers it; `pages` is always a list. */
export const book = z.object({
  id: z.int(),
  title: z.string(),
  slug: z.string(),
  blurb: z.string(),
  coverUrl: z.string(),
  buyUrl: z.string(),
  pages: z.array(bookPage),
  order: z.nullable(z.int()),
  /** As for poems: a draft is never shown; a future publishAt is a scheduled book. */
  draft: z.boolean(),
  publishAt: dateTime,
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type Book = z.output<typeof book>;
