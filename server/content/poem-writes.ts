import { and, eq, gt, or } from "drizzle-orm";
import { coverProviderOf } from "../../common/cover-image.ts";
import type { PoemInput } from "../../common/schemas/admin.ts";
import type { AdminPoem } from "../../common/schemas/poems.ts";
import type { AdminActor } from "../core/actor.ts";
import { notFound } from "../core/errors.ts";
import type { Transaction } from "../db/client.ts";
import { poems } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { readAdminPoem } from "./admin-poem-reads.ts";
import { type ContentAdminDeps, type ContentWrites, linkTags } from "./content-writes.ts";
import { keepVersion, lockVersionToReplace } from "./poem-revisions.ts";
import { timingsToKeep } from "./stanza-timings.ts";

const SLUG_TAKEN = "A poem with this slug already exists";

function poemValues(writes: ContentWrites, input: PoemInput, isCreate: boolean) {
  return {
    ...writes.publicationValues(input, isCreate),
    title: input.title,
    slug: input.slug,
    stanzas: input.stanzas,
    audioUrl: input.audioUrl,
    coverUrl: input.coverUrl,
    coverAlt: input.coverAlt ?? input.title,
    coverProvider: coverProviderOf(input.coverUrl),
    coverWidth: input.coverUrl ? input.coverWidth : null,
    coverHeight: input.coverUrl ? input.coverHeight : null,
  };
}

/** Writes a poem's new values under its row lock, keeping the version they replace. */
export async function revisePoem(
  tx: Transaction,
  admin: AdminActor,
  id: number,
  values: { title: string; stanzas: string[] } & Partial<typeof poems.$inferInsert>,
  timings: Pick<PoemInput, "stanzaTimings" | "readingDuration"> = {},
) {
  const before = await lockVersionToReplace(tx, and(eq(poems.id, id), isLive(poems)));
  if (!before) throw notFound("Poem not found");
  const audioUrl = values.audioUrl === undefined ? before.audioUrl : values.audioUrl;
  const kept = timingsToKeep({ ...timings, stanzas: values.stanzas, audioUrl }, before);
  const [poem] = await tx
    .update(poems)
    // An edited sample is the poet's own now (decision 058).
    .set({ ...values, ...kept, isSample: false })
    .where(eq(poems.id, id))
    .returning({ slug: poems.slug });
  if (!poem) throw notFound("Poem not found");
  await keepVersion(tx, admin, id, before, values);
  return poem;
}

/**
 * The poet's writes to poems: create, save and publish now (a restore of an earlier version is in
 * poem-versions.ts, a delete waits in Recently deleted: recently-deleted.ts).
 */
export function poemWrites(deps: ContentAdminDeps, writes: ContentWrites) {
  const { db, now, contentChanges } = deps;
  const { writeContent, requireCoverAllowedOnPages } = writes;
  return {
    async createPoem(_admin: AdminActor, input: PoemInput): Promise<AdminPoem> {
      requireCoverAllowedOnPages(input.coverUrl);
      const slug = await writeContent(
        () =>
          db.transaction(async (tx) => {
            const [poem] = await tx
              .insert(poems)
              .values({ ...poemValues(writes, input, true), ...timingsToKeep(input) })
              .returning({ id: poems.id, slug: poems.slug });
            if (!poem) throw new Error("poem insert returned nothing");
            await linkTags(tx, { poemId: poem.id }, input.tagIds);
            return poem.slug;
          }),
        SLUG_TAKEN,
      );
      return readAdminPoem(deps, slug);
    },

    /**
     * Saves a poem; a change of title or stanzas keeps the version it replaces and moves its
     * readers' words with their stanzas (poem-revisions.ts), in the same transaction.
     */
    async updatePoem(admin: AdminActor, id: number, input: PoemInput): Promise<AdminPoem> {
      requireCoverAllowedOnPages(input.coverUrl);
      const slug = await writeContent(
        () =>
          db.transaction(async (tx) => {
            const values = poemValues(writes, input, false);
            // A draft published without a time is published now, not when it was drafted.
            if (input.draft === false && input.publishAt === undefined) {
              const [current] = await tx
                .select({ draft: poems.draft })
                .from(poems)
                .where(eq(poems.id, id));
              if (current?.draft) values.publishAt = now();
            }
            const poem = await revisePoem(tx, admin, id, values, input);
            await linkTags(tx, { poemId: id }, input.tagIds);
            return poem.slug;
          }),
        SLUG_TAKEN,
      );
      return readAdminPoem(deps, slug);
    },

    /**
     * Publishes a draft or a scheduled poem now (the preview banner's 'Publish'); a poem already
     * out keeps its date. 404 for an unknown poem.
     */
    async publishPoem(_admin: AdminActor, id: number): Promise<AdminPoem> {
      const at = now();
      const [live] = await db
        .select({ slug: poems.slug })
        .from(poems)
        .where(and(eq(poems.id, id), isLive(poems)));
      if (!live) throw notFound("Poem not found");
      const [published] = await db
        .update(poems)
        .set({ draft: false, publishAt: at })
        .where(
          and(eq(poems.id, id), isLive(poems), or(eq(poems.draft, true), gt(poems.publishAt, at))),
        )
        .returning({ slug: poems.slug });
      if (published) await contentChanges.announce();
      return readAdminPoem(deps, live.slug);
    },
  };
}
