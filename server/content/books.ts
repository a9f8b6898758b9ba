import { and, asc, eq, sql } from "drizzle-orm";
import type { Book, BookPage } from "../../common/schemas/books.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import { books } from "../db/schema.ts";
import { publishedBooks } from "../db/visibility.ts";

/** A book as every read shows it; `asBook` completes a row of these columns. */
export const bookColumns = {
  id: books.id,
  title: books.title,
  slug: books.slug,
  blurb: books.blurb,
  coverUrl: books.coverUrl,
  buyUrl: books.buyUrl,
  pages: books.pages,
  order: books.order,
  draft: books.draft,
  publishAt: books.publishAt,
  createdAt: books.createdAt,
  updatedAt: books.updatedAt,
};

/** `pages` is always a list (stored as null when a book has none). */
export const asBook = <Row extends { pages: BookPage[] | null }>(
  row: Row,
): Omit<Row, "pages"> & { pages: BookPage[] } => ({ ...row, pages: row.pages ?? [] });

export function createBookService({ db, now }: ServiceDeps) {
  return {
    /** In slot order, then oldest first; `pages` is always a list. */
    async listBooks(): Promise<Book[]> {
      const rows = await db
        .select(bookColumns)
        .from(books)
        .where(publishedBooks(now()))
        .orderBy(sql`${books.order} asc nulls last`, asc(books.createdAt));
      return rows.map(asBook);
    },

    async getBook(slug: string): Promise<Book> {
      const [book] = await db
        .select(bookColumns)
        .from(books)
        .where(and(eq(books.slug, slug), publishedBooks(now())));
      if (!book) throw notFound("Book not found");
      return asBook(book);
    },
  };
}

export type BookService = ReturnType<typeof createBookService>;
