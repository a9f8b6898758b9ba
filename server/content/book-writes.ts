import { and, eq } from "drizzle-orm";
import type { BookInput } from "../../common/schemas/admin.ts";
import type { Book } from "../../common/schemas/books.ts";
import type { AdminActor } from "../core/actor.ts";
import { notFound } from "../core/errors.ts";
import { books } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { asBook, bookColumns } from "./books.ts";
import type { ContentAdminDeps, ContentWrites } from "./content-writes.ts";

const BOOK_SLUG_TAKEN = "A book with this slug already exists";

/** The poet's books: create and save (a delete waits in Recently deleted, recently-deleted.ts). */
export function bookWrites({ db }: Pick<ContentAdminDeps, "db">, writes: ContentWrites) {
  const { writeContent, requireCoverAllowedOnPages, publicationValues } = writes;
  return {
    async createBook(_admin: AdminActor, input: BookInput): Promise<Book> {
      requireCoverAllowedOnPages(input.coverUrl);
      const [book] = await writeContent(
        () =>
          db
            .insert(books)
            .values({ ...input, ...publicationValues(input, true) })
            .returning(bookColumns),
        BOOK_SLUG_TAKEN,
      );
      if (!book) throw new Error("book insert returned nothing");
      return asBook(book);
    },

    async updateBook(_admin: AdminActor, id: number, input: BookInput): Promise<Book> {
      requireCoverAllowedOnPages(input.coverUrl);
      const [book] = await writeContent(
        () =>
          db
            .update(books)
            .set({ ...input, ...publicationValues(input, false), isSample: false })
            .where(and(eq(books.id, id), isLive(books)))
            .returning(bookColumns),
        BOOK_SLUG_TAKEN,
      );
      if (!book) throw notFound("Book not found");
      return asBook(book);
    },
  };
}
