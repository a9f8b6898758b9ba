import { and, asc, desc, eq } from "drizzle-orm";
import type { TagRef, Theme } from "../../common/schemas/poems.ts";
import { tagSlug } from "../../common/slug.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import { embers, emberTags, poems, poemTags, tags } from "../db/schema.ts";
import { publishedPoems, shownEmbers } from "../db/visibility.ts";
import { poemColumns, withTags } from "./poem-rows.ts";

/** The tags and their themes: a tag's page gathers its poems and embers. */
export function themeReads({ db, config, now }: Pick<ServiceDeps, "db" | "config" | "now">) {
  async function findTagBySlug(slug: string): Promise<TagRef | undefined> {
    const all = await db.select({ id: tags.id, name: tags.name }).from(tags);
    return all.find((tag) => tagSlug(tag.name) === slug);
  }

  return {
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
