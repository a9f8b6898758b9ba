import { z } from "zod/mini";
import { dateTime } from "./answer.ts";

/**
 * A poem or book in its tab's Recently deleted list (GET /api/admin/poems/deleted,
 * /api/admin/books/deleted): kept, hidden from everyone, until it is restored or `purgeAt`.
 */
export const deletedItem = z.object({
  id: z.int(),
  title: z.string(),
  slug: z.string(),
  deletedAt: dateTime,
  /** When the database upkeep removes it for good. */
  purgeAt: dateTime,
});
export type DeletedItem = z.output<typeof deletedItem>;
