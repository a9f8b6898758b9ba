import { and, eq, sql } from "drizzle-orm";
import type { Poem, TagRef } from "../../common/schemas/poems.ts";
import type { Audience } from "../../common/session.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import { poems, poemTags, tags } from "../db/schema.ts";
import { readablePoems } from "../db/visibility.ts";
import { poemColumns } from "./poem-rows.ts";

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

/** A poem at its own address, and where it stands now (the poem page's banner). */
export function poemPage({ db, now }: Pick<ServiceDeps, "db" | "now">) {
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
  };
}
