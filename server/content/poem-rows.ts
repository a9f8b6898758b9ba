import { asc, eq, inArray } from "drizzle-orm";
import type { TagRef } from "../../common/schemas/poems.ts";
import type { Database } from "../db/client.ts";
import { type emberTags, poems, type poemTags, tags } from "../db/schema.ts";

/** A poem's columns as every read selects them: the reader's, the admin's, the fediverse's. */
export const poemColumns = {
  id: poems.id,
  title: poems.title,
  slug: poems.slug,
  stanzas: poems.stanzas,
  audioUrl: poems.audioUrl,
  stanzaTimings: poems.stanzaTimings,
  readingDuration: poems.readingDuration,
  coverUrl: poems.coverUrl,
  coverAlt: poems.coverAlt,
  coverWidth: poems.coverWidth,
  coverHeight: poems.coverHeight,
  draft: poems.draft,
  publishAt: poems.publishAt,
  createdAt: poems.createdAt,
  updatedAt: poems.updatedAt,
};

/** Attaches tags to rows with one query for all of them, whatever their number (no N+1). */
export async function withTags<Row extends { id: number }>(
  db: Database,
  rows: Row[],
  link: typeof poemTags | typeof emberTags,
): Promise<Array<Row & { tags: TagRef[] }>> {
  if (rows.length === 0) return [];
  const ownerId = "poemId" in link ? link.poemId : link.emberId;
  const links = await db
    .select({ ownerId, id: tags.id, name: tags.name })
    .from(link)
    .innerJoin(tags, eq(tags.id, link.tagId))
    .where(
      inArray(
        ownerId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(tags.name));
  const byOwner = new Map<number, TagRef[]>();
  for (const { ownerId: owner, id, name } of links) {
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), { id, name }]);
  }
  return rows.map((row) => ({ ...row, tags: byOwner.get(row.id) ?? [] }));
}
