import { asc, desc } from "drizzle-orm";
import { books, poems, tags } from "../db/schema.ts";
import { publishedBooks, publishedPoems } from "../db/visibility.ts";
import type { ServiceDeps } from "./deps.ts";

/** What crawlers and feed readers are told about: every poem, theme and book. */
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
      return { poems: poemRows, tagNames: tagRows.map((tag) => tag.name), books: bookRows };
    },
  };
}
