import { eq, inArray } from "drizzle-orm";
import { COVER_HTTPS_MESSAGE, isCoverAllowedOnPages } from "../../common/cover-image.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, invalid, isUniqueViolation } from "../core/errors.ts";
import type { Transaction } from "../db/client.ts";
import { emberTags, poemTags, tags } from "../db/schema.ts";
import type { PoemService } from "./poems.ts";

/*
 * What the poet's writes from the admin area share (content-admin.ts): the wrapper every write
 * to what readers see goes through, and the rules poems, embers and books have in common.
 */

/** What the admin's content service is built from: the reading service lends the poem page. */
export type ContentAdminDeps = ServiceDeps & { poems: PoemService; contentChanges: ContentChanges };

async function requireTags(tx: Transaction, tagIds: number[]) {
  if (tagIds.length === 0) return;
  const found = await tx.select({ id: tags.id }).from(tags).where(inArray(tags.id, tagIds));
  if (found.length !== new Set(tagIds).size) {
    throw invalid("Unknown tag", { tagIds: ["Choose tags from the list"] });
  }
}

/** Replaces a poem's or an ember's tags with `tagIds` (all of which must exist). */
export async function linkTags(
  tx: Transaction,
  owner: { poemId: number } | { emberId: number },
  tagIds: number[],
) {
  await requireTags(tx, tagIds);
  const distinct = [...new Set(tagIds)];
  if ("poemId" in owner) {
    await tx.delete(poemTags).where(eq(poemTags.poemId, owner.poemId));
    if (distinct.length > 0) {
      await tx.insert(poemTags).values(distinct.map((tagId) => ({ ...owner, tagId })));
    }
    return;
  }
  await tx.delete(emberTags).where(eq(emberTags.emberId, owner.emberId));
  if (distinct.length > 0) {
    await tx.insert(emberTags).values(distinct.map((tagId) => ({ ...owner, tagId })));
  }
}

export function createContentWrites({
  config,
  now,
  contentChanges,
}: Pick<ContentAdminDeps, "config" | "now" | "contentChanges">) {
  return {
    /**
     * Runs a write to what readers see, answering 409 with `conflictMessage` when it would
     * duplicate a unique value, and once it is committed announces the change, so cached pages go
     * on every instance. Every write of the admin's content goes through here but whisper
     * moderation: no page or cached answer holds whispers (a stanza's are read afresh on each
     * call, as after a reader writes or deletes one), so there is nothing to announce.
     */
    async writeContent<T>(write: () => Promise<T>, conflictMessage = ""): Promise<T> {
      let result: T;
      try {
        result = await write();
      } catch (error) {
        if (conflictMessage && isUniqueViolation(error)) throw conflict(conflictMessage);
        throw error;
      }
      await contentChanges.announce();
      return result;
    },

    /** A cover the page's own policy would block is refused here, not shown broken to readers. */
    requireCoverAllowedOnPages(coverUrl: string | null) {
      if (coverUrl && !isCoverAllowedOnPages(coverUrl, config.publicUrl.origin)) {
        throw invalid(COVER_HTTPS_MESSAGE, { coverUrl: [COVER_HTTPS_MESSAGE] });
      }
    },

    /** On create, publication defaults to now and not a draft; on update, it stays unless given. */
    publicationValues: (input: { draft?: boolean; publishAt?: Date }, isCreate: boolean) => ({
      ...(input.draft !== undefined || isCreate ? { draft: input.draft ?? false } : {}),
      ...(input.publishAt !== undefined || isCreate ? { publishAt: input.publishAt ?? now() } : {}),
    }),
  };
}

export type ContentWrites = ReturnType<typeof createContentWrites>;
