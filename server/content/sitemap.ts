import { asc, desc } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { books, poems, tags } from "../db/schema.ts";
import { publishedBooks, publishedPoems } from "../db/visibility.ts";

/** What crawlers and feed readers are told about: every poem, theme and book (guest voices are built in). */
export function createSitemapService({ db, now }: ServiceDeps) {
  return {
    async listEntries() {
      const asOf = now();
      const [poemRows, tagRows, bookRows] = await Promise.all([
        db
          .select({
            slug: poems.slug,
            title: poems.title,
            stanzas: poems.stanzas,
            publishAt: poems.publishAt,
            updatedAt: poems.updatedAt,
          })
          .from(poems)
          .where(publishedPoems(asOf))
          .orderBy(desc(poems.publishAt), desc(poems.id)),
        db.select({ name: tags.name }).from(tags).orderBy(asc(tags.name)),
        db
          .select({ slug: books.slug, updatedAt: books.updatedAt })
          .from(books)
          .where(publishedBooks(asOf))
          .orderBy(asc(books.slug)),
      ]);
      return {
        // A poem written before the day it was scheduled for changed for readers when it came
        // out: its last change is the later of the two, so no poem was updated before it was
        // published.
        poems: poemRows.map(({ updatedAt, ...poem }) => ({
          ...poem,
          updatedAt: new Date(Math.max(updatedAt.getTime(), poem.publishAt.getTime())),
        })),
        tagNames: tagRows.map((tag) => tag.name),
        books: bookRows,
      };
    },
  };
}

export type SitemapService = ReturnType<typeof createSitemapService>;
