import { and, desc, eq, exists, sql } from "drizzle-orm";
import type { Poem } from "../../common/schemas/poems.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { poems, poemTags, tags } from "../db/schema.ts";
import { publishedPoems } from "../db/visibility.ts";
import { poemColumns, withTags } from "./poem-rows.ts";

/** The published poems as readers' lists show them, and the one home shows first. */
export function poemLists({ db, now }: Pick<ServiceDeps, "db" | "now">) {
  return {
    /**
     * Published poems, newest published first, optionally only those with a tag (by name, case-insensitive), optionally one
     * page at a time (`limit`, `offset`).
     */
    async listPoems(
      options: { tag?: string; limit?: number; offset?: number } = {},
    ): Promise<Poem[]> {
      const tagFilter = options.tag?.trim();
      const rows = await db
        .select(poemColumns)
        .from(poems)
        .where(
          and(
            publishedPoems(now()),
            tagFilter
              ? exists(
                  db
                    .select({ one: sql`1` })
                    .from(poemTags)
                    .innerJoin(tags, eq(tags.id, poemTags.tagId))
                    .where(
                      and(
                        eq(poemTags.poemId, poems.id),
                        sql`lower(${tags.name}) = lower(${tagFilter})`,
                      ),
                    ),
                )
              : undefined,
          ),
        )
        .orderBy(desc(poems.publishAt), desc(poems.id))
        .limit(options.limit ?? Number.MAX_SAFE_INTEGER)
        .offset(options.offset ?? 0);
      return withTags(db, rows, poemTags);
    },

    /**
     * The poem home shows in its first screen: the one the poet pinned (site settings) while
     * readers may see it, else the newest published; null when there is none.
     */
    async getHomePoem(pinnedId: number | null): Promise<{ poem: Poem; isPinned: boolean } | null> {
      if (pinnedId !== null) {
        const rows = await db
          .select(poemColumns)
          .from(poems)
          .where(and(eq(poems.id, pinnedId), publishedPoems(now())));
        const [pinned] = await withTags(db, rows, poemTags);
        if (pinned) return { poem: pinned, isPinned: true };
      }
      const rows = await db
        .select(poemColumns)
        .from(poems)
        .where(publishedPoems(now()))
        .orderBy(desc(poems.publishAt), desc(poems.id))
        .limit(1);
      const [newest] = await withTags(db, rows, poemTags);
      return newest ? { poem: newest, isPinned: false } : null;
    },
  };
}
