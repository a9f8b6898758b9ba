import { asc, eq, sql } from "drizzle-orm";
import { books } from "../db/schema.ts";
import type { ServiceDeps } from "./deps.ts";
import { notFound } from "./errors.ts";

const bookColumns = {
  id: books.id,
  title: books.title,
  slug: books.slug,
  blurb: books.blurb,
  coverUrl: books.coverUrl,
  buyUrl: books.buyUrl,
  pages: books.pages,
  order: books.order,
  createdAt: books.createdAt,
  updatedAt: books.updatedAt,
};

export function createBookService({ db }: ServiceDeps) {
  return {
    /** In slot order, then oldest first; `pages` is always a list. */
    async listBooks() {
      const rows = await db
        .select(bookColumns)
        .from(books)
        .orderBy(sql`${books.order} asc nulls last`, asc(books.createdAt));
      return rows.map((book) => ({ ...book, pages: book.pages ?? [] }));
    },

    async getBook(slug: string) {
      const [book] = await db.select(bookColumns).from(books).where(eq(books.slug, slug));
      if (!book) throw notFound("Book not found");
      return { ...book, pages: book.pages ?? [] };
    },
  };
}

export type BookService = ReturnType<typeof createBookService>;
