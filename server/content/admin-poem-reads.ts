import { and, desc, eq, sql } from "drizzle-orm";
import type { PoemPreviewInput } from "../../common/schemas/admin.ts";
import type { AdminPoem, Poem, RemovedStanzaWords } from "../../common/schemas/poems.ts";
import type { AdminActor } from "../core/actor.ts";
import { notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { poems, poemTags } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import type { ContentAdminDeps } from "./content-writes.ts";
import { createPoemPreview } from "./poem-preview.ts";
import { countRemovedWords } from "./poem-revisions.ts";
import { poemColumns, withTags } from "./poem-rows.ts";

/*
 * The poems as the poet's Poems tab and editor read them: drafts and scheduled ones included,
 * each with its readers' words set aside on removed stanzas (poem-revisions.ts).
 */

const noRemovedWords: RemovedStanzaWords = { echoes: 0, whispers: 0, journalEntries: 0 };

/** Poems with the count of their readers' words set aside on removed stanzas. */
async function withRemovedWords<Row extends Poem>(
  db: Database,
  rows: Row[],
): Promise<(Row & Pick<AdminPoem, "removedStanzaWords">)[]> {
  const counts = await countRemovedWords(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...row,
    removedStanzaWords: counts.get(row.id) ?? noRemovedWords,
  }));
}

/** A poem as the admin's calls answer it, after a write as after a read. */
export async function readAdminPoem(
  { db, poems: poemReads }: Pick<ContentAdminDeps, "db" | "poems">,
  slug: string,
): Promise<AdminPoem> {
  const [poem] = await withRemovedWords(db, [await poemReads.getPoem("admin", slug)]);
  if (!poem) throw notFound("Poem not found");
  return poem;
}

export function adminPoemReads(deps: Pick<ContentAdminDeps, "db" | "config" | "now" | "poems">) {
  const { db, now } = deps;
  const previewPoem = createPoemPreview(deps);
  return {
    previewPoem: (_admin: AdminActor, input: PoemPreviewInput) => previewPoem(input),

    /** One live poem, drafts and scheduled ones included; 404 for an unknown poem. */
    async getPoem(_admin: AdminActor, id: number): Promise<AdminPoem> {
      const [poem] = await db
        .select({ slug: poems.slug })
        .from(poems)
        .where(and(eq(poems.id, id), isLive(poems)));
      if (!poem) throw notFound("Poem not found");
      return readAdminPoem(deps, poem.slug);
    },

    /**
     * Every live poem (the deleted ones are in Recently deleted), for the Poems tab: drafts first, then scheduled ones (soonest first), then the
     * published (newest first).
     */
    async listPoems(_admin: AdminActor): Promise<AdminPoem[]> {
      const asOf = now();
      const rows = await db
        .select(poemColumns)
        .from(poems)
        .where(isLive(poems))
        .orderBy(
          sql`case when ${poems.draft} then 0 when ${poems.publishAt} > ${asOf} then 1 else 2 end`,
          sql`case when not ${poems.draft} and ${poems.publishAt} > ${asOf} then ${poems.publishAt} end asc`,
          desc(poems.publishAt),
          desc(poems.id),
        );
      return withRemovedWords(db, await withTags(db, rows, poemTags));
    },
  };
}
