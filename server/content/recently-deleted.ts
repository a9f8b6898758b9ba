import { and, desc, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { DeletedItem } from "../../common/schemas/recently-deleted.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, notFound } from "../core/errors.ts";
import { books, poems } from "../db/schema.ts";
import { isLive, purgeAt, purgeCutoff, recentlyDeleted } from "../db/visibility.ts";

/** What can be deleted and restored, with the words its messages use. */
const KINDS = {
  poem: { table: poems, name: "Poem" },
  book: { table: books, name: "Book" },
} as const;
type Kind = keyof typeof KINDS;

/**
 * Deleting and restoring leave updatedAt as it was: it says when the words last changed (the
 * feed's and the sitemap's dates, a version's savedAt), and a restored poem's words did not.
 */
const keepUpdatedAt = (table: typeof poems | typeof books) => sql`${table.updatedAt}`;

/**
 * Deleting a poem or book, undoing it, and Recently deleted (docs/decisions/033): a delete only
 * stamps deletedAt, so the row keeps its slug and everything hanging from it (tags, echoes,
 * whispers, saved stanzas, versions) and a restore brings it all back as it was. Readers stop
 * seeing it at once (server/db/visibility.ts); the hourly database upkeep purges what has been
 * deleted for longer than RECENTLY_DELETED_DAYS, and the foreign keys' cascades take the rest.
 */
export function createRecentlyDeletedService({
  db,
  now,
  contentChanges,
}: ServiceDeps & { contentChanges: ContentChanges }) {
  async function remove(kind: Kind, id: number): Promise<void> {
    const { table, name } = KINDS[kind];
    const deleted = await db
      .update(table)
      .set({ deletedAt: now(), updatedAt: keepUpdatedAt(table) })
      .where(and(eq(table.id, id), isLive(table)))
      .returning({ id: table.id });
    if (deleted.length === 0) throw notFound(`${name} not found`);
    await contentChanges.announce();
  }

  /**
   * Brings a recently deleted poem or book back. One already restored (a second Undo, say) is a
   * 409 and one purged or past its 30 days a 404, each saying so, and neither changes anything.
   */
  async function restore(kind: Kind, id: number): Promise<{ message: string }> {
    const { table, name } = KINDS[kind];
    const asOf = now();
    const restored = await db
      .update(table)
      .set({ deletedAt: null, updatedAt: keepUpdatedAt(table) })
      .where(and(eq(table.id, id), recentlyDeleted(table, asOf)))
      .returning({ id: table.id });
    if (restored.length === 0) {
      const [row] = await db
        .select({ deletedAt: table.deletedAt })
        .from(table)
        .where(eq(table.id, id));
      if (row && row.deletedAt === null) {
        throw conflict(`This ${name.toLowerCase()} was already restored`);
      }
      throw notFound(
        `This ${name.toLowerCase()} is no longer in Recently deleted: deleted ${name.toLowerCase()}s are kept for 30 days`,
      );
    }
    await contentChanges.announce();
    return { message: `${name} restored successfully` };
  }

  async function list(kind: Kind): Promise<DeletedItem[]> {
    const { table } = KINDS[kind];
    const rows = await db
      .select({ id: table.id, title: table.title, slug: table.slug, deletedAt: table.deletedAt })
      .from(table)
      .where(recentlyDeleted(table, now()))
      .orderBy(desc(table.deletedAt), desc(table.id));
    return rows.flatMap(({ deletedAt, ...row }) =>
      deletedAt ? [{ ...row, deletedAt, purgeAt: purgeAt(deletedAt) }] : [],
    );
  }

  return {
    deletePoem: (_admin: AdminActor, id: number) => remove("poem", id),
    restorePoem: (_admin: AdminActor, id: number) => restore("poem", id),
    listDeletedPoems: (_admin: AdminActor) => list("poem"),
    deleteBook: (_admin: AdminActor, id: number) => remove("book", id),
    restoreBook: (_admin: AdminActor, id: number) => restore("book", id),
    listDeletedBooks: (_admin: AdminActor) => list("book"),

    /**
     * Removes for good the poems and books deleted more than RECENTLY_DELETED_DAYS ago, with
     * their echoes, whispers, saved stanzas and versions (cascades). Run by the database upkeep.
     */
    async purgeExpired(): Promise<number> {
      const cutoff = purgeCutoff(now());
      let purged = 0;
      for (const { table } of Object.values(KINDS)) {
        const rows = await db
          .delete(table)
          .where(and(isNotNull(table.deletedAt), lte(table.deletedAt, cutoff)))
          .returning({ id: table.id });
        purged += rows.length;
      }
      return purged;
    },
  };
}

export type RecentlyDeletedService = ReturnType<typeof createRecentlyDeletedService>;
