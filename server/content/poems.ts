import { and, asc, desc, eq, exists, inArray, sql } from "drizzle-orm";
import type { Poem, TagRef, Theme } from "../../common/schemas/poems.ts";
import type { Audience } from "../../common/session.ts";
import { tagSlug } from "../../common/slug.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { embers, emberTags, poems, poemTags, tags } from "../db/schema.ts";
import { publishedPoems, readablePoems, shownEmbers } from "../db/visibility.ts";

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

/**
 * A poem's tags, by name, as a JSON array in the poem's own row. Columns are named with their
 * tables: Drizzle leaves them unqualified in a one-table select, which would bind the correlated
 * "id" to the subquery's tags.
 */
const poemTagsJson = sql<TagRef[]>`coalesce((
  select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name)
  from ${poemTags} pt inner join ${tags} t on t.id = pt.tag_id
  where pt.poem_id = ${poems}.id
), '[]'::json)`;

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

/** Reading: poems, tags and themes (docs/product/reading.md; docs/product/api.md, Reading). */
export function createPoemService({ db, config, now }: ServiceDeps) {
  async function findTagBySlug(slug: string): Promise<TagRef | undefined> {
    const all = await db.select({ id: tags.id, name: tags.name }).from(tags);
    return all.find((tag) => tagSlug(tag.name) === slug);
  }

  // The poem page is the hottest read: one prepared query per audience, the tags in the same row.
  const poemBySlug = (audience: Audience) =>
    db
      .select({ ...poemColumns, tags: poemTagsJson })
      .from(poems)
      .where(
        and(
          eq(poems.slug, sql.placeholder("slug")),
          readablePoems(audience, sql.placeholder("now")),
        ),
      )
      .prepare(`poem_by_slug_${audience}`);
  const poemBySlugFor = {
    anonymous: poemBySlug("anonymous"),
    reader: poemBySlug("reader"),
    admin: poemBySlug("admin"),
  };

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

    /** A poem at its own address, as `audience` may see it now; 404 when it may not. */
    async getPoem(audience: Audience, slug: string): Promise<Poem> {
      const [poem] = await poemBySlugFor[audience].execute({ slug, now: now() });
      if (!poem) throw notFound("Poem not found");
      return poem;
    },

    /** Where a poem stands now: a draft, scheduled (publishAt still to come), or published. */
    publicationOf(poem: Pick<Poem, "draft" | "publishAt">): "draft" | "scheduled" | "published" {
      if (poem.draft) return "draft";
      return poem.publishAt > now() ? "scheduled" : "published";
    },

    async listTags(): Promise<TagRef[]> {
      return db.select({ id: tags.id, name: tags.name }).from(tags).orderBy(asc(tags.name));
    },

    /** A tag's poems and published embers; 404 when no tag has this slug. */
    async getTheme(slug: string): Promise<Theme> {
      const tag = await findTagBySlug(slug);
      if (!tag) throw notFound("Theme not found");
      const poemRows = await db
        .select(poemColumns)
        .from(poems)
        .innerJoin(poemTags, eq(poemTags.poemId, poems.id))
        .where(and(eq(poemTags.tagId, tag.id), publishedPoems(now())))
        .orderBy(desc(poems.publishAt), desc(poems.id));
      const emberRows = await db
        .select({
          id: embers.id,
          text: embers.text,
          date: embers.date,
          isFeatured: embers.isFeatured,
        })
        .from(embers)
        .innerJoin(emberTags, eq(emberTags.emberId, embers.id))
        .where(and(eq(emberTags.tagId, tag.id), shownEmbers(now(), config.siteTimezone)))
        .orderBy(desc(embers.date));
      return {
        tag,
        poems: await withTags(db, poemRows, poemTags),
        embers: await withTags(db, emberRows, emberTags),
      };
    },
  };
}

export type PoemService = ReturnType<typeof createPoemService>;
