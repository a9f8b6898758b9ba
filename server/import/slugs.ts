import { or, sql } from "drizzle-orm";
import { SLUG_PATTERN, slugFromTitle } from "../../common/slug.ts";
import { poems } from "../db/schema.ts";
import { type Executor, type StoredPoem, textSet } from "./identity.ts";

/*
 * The slugs imported poems take (docs/product/import.md): their own where a slug may be one, and
 * never one already taken, a `-2`, `-3`… after it instead.
 */

const SLUG_MAX_LENGTH = 180;

/** The slug a poem asks for: its own when it is one a slug may be, else made from its title. */
export function askedSlug(poem: StoredPoem): string {
  const own = poem.slug?.trim().toLowerCase() ?? "";
  const slug = SLUG_PATTERN.test(own) ? own : slugFromTitle(own || poem.title);
  return (slug || slugFromTitle(poem.title) || "poem").slice(0, SLUG_MAX_LENGTH).replace(/-+$/, "");
}

/** Every slug in use among `asked` and their suffixed forms (deleted poems keep theirs). */
export async function takenSlugs(db: Executor, asked: string[]): Promise<Set<string>> {
  if (asked.length === 0) return new Set();
  const rows = await db
    .select({ slug: poems.slug })
    .from(poems)
    .where(
      or(
        sql`${poems.slug} in ${textSet(asked)}`,
        sql`${poems.slug} like any(array${textSet(asked.map((slug) => `${slug}-%`))})`,
      ),
    );
  return new Set(rows.map((row) => row.slug));
}

/** The asked slug, or the first `-2`, `-3`… after it that is free; the answer is then taken. */
export function claimSlug(asked: string, taken: Set<string>): string {
  let slug = asked;
  for (let suffix = 2; taken.has(slug); suffix++) slug = `${asked}-${suffix}`;
  taken.add(slug);
  return slug;
}
