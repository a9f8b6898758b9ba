import { and, asc, desc, eq, exists, inArray, sql } from "drizzle-orm";
import type { ScheduledEmber } from "../../common/schemas/admin.ts";
import type { SampleContent, TagUsage } from "../../common/schemas/sample-content.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { books, embers, emberTags, guestVoices, poems, poemTags, tags } from "../db/schema.ts";
import { scheduledEmberColumns } from "./content-admin.ts";
import { withTags } from "./poems.ts";

type Reader = Pick<Database, "select">;

/** A sample tag that one of the poet's own poems or embers carries stays theirs. */
const usedByThePoet = (reader: Reader) =>
  sql`(${exists(
    reader
      .select({ one: sql`1` })
      .from(poemTags)
      .innerJoin(poems, eq(poems.id, poemTags.poemId))
      .where(and(eq(poemTags.tagId, tags.id), eq(poems.isSample, false))),
  )} or ${exists(
    reader
      .select({ one: sql`1` })
      .from(emberTags)
      .innerJoin(embers, eq(embers.id, emberTags.emberId))
      .where(and(eq(emberTags.tagId, tags.id), eq(embers.isSample, false))),
  )})`;

/** Everything marked sample, by title, text or name, and which sample tags the poet uses. */
async function readSample(reader: Reader): Promise<SampleContent> {
  const [poemRows, emberRows, bookRows, tagRows, voiceRows] = await Promise.all([
    reader
      .select({ title: poems.title })
      .from(poems)
      .where(eq(poems.isSample, true))
      .orderBy(asc(poems.id)),
    reader
      .select({ text: embers.text })
      .from(embers)
      .where(eq(embers.isSample, true))
      .orderBy(asc(embers.date)),
    reader
      .select({ title: books.title })
      .from(books)
      .where(eq(books.isSample, true))
      .orderBy(asc(books.id)),
    reader
      .select({ name: tags.name, isUsed: usedByThePoet(reader).mapWith(Boolean) })
      .from(tags)
      .where(eq(tags.isSample, true))
      .orderBy(asc(tags.name)),
    reader
      .select({ name: guestVoices.name })
      .from(guestVoices)
      .where(eq(guestVoices.isSample, true))
      .orderBy(asc(guestVoices.position)),
  ]);
  return {
    poems: poemRows.map((row) => row.title),
    embers: emberRows.map((row) => row.text),
    books: bookRows.map((row) => row.title),
    tags: tagRows.filter((row) => !row.isUsed).map((row) => row.name),
    guestVoices: voiceRows.map((row) => row.name),
    keptTags: tagRows.filter((row) => row.isUsed).map((row) => row.name),
  };
}

/**
 * 'Remove the sample content' (docs/decisions/058-sample-content.md): the rows the demo seed and
 * the built-in guest voices are marked with `is_sample`, which an edit clears, so one statement
 * per table removes exactly what the poet did not write. Removed for good, with what hangs from
 * them (readers' echoes and whispers on a sample poem go with it), in one transaction. Also what
 * the poet sees before deleting anything else: every ember, and what carries each tag.
 */
export function createSampleContentService({
  db,
  contentChanges,
}: ServiceDeps & { contentChanges: ContentChanges }) {
  return {
    list: (_admin: AdminActor) => readSample(db),

    async remove(_admin: AdminActor): Promise<SampleContent> {
      const removed = await db.transaction(async (tx) => {
        const sample = await readSample(tx);
        await tx.delete(poems).where(eq(poems.isSample, true));
        await tx.delete(embers).where(eq(embers.isSample, true));
        await tx.delete(books).where(eq(books.isSample, true));
        await tx.delete(guestVoices).where(eq(guestVoices.isSample, true));
        if (sample.tags.length > 0) {
          await tx
            .delete(tags)
            .where(and(eq(tags.isSample, true), inArray(tags.name, sample.tags)));
        }
        // A sample tag the poet's work carries is theirs from now on.
        await tx.update(tags).set({ isSample: false }).where(eq(tags.isSample, true));
        return sample;
      });
      await contentChanges.announce();
      return removed;
    },

    /** Every ember, the newest day first: any can be deleted, the featured one too. */
    async allEmbers(_admin: AdminActor): Promise<ScheduledEmber[]> {
      const rows = await db.select(scheduledEmberColumns).from(embers).orderBy(desc(embers.date));
      return withTags(db, rows, emberTags);
    },

    /** Every tag with how many poems and embers carry it, for the admin to see before a delete. */
    async tagUsage(_admin: AdminActor): Promise<TagUsage[]> {
      return db
        .select({
          id: tags.id,
          name: tags.name,
          poems:
            sql<number>`(select count(*) from ${poemTags} where ${poemTags.tagId} = ${tags.id})`.mapWith(
              Number,
            ),
          embers:
            sql<number>`(select count(*) from ${emberTags} where ${emberTags.tagId} = ${tags.id})`.mapWith(
              Number,
            ),
        })
        .from(tags)
        .orderBy(asc(tags.name));
    },
  };
}

export type SampleContentService = ReturnType<typeof createSampleContentService>;
