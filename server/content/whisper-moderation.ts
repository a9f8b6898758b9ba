import { and, count, desc, eq, sql } from "drizzle-orm";
import type { ModeratedWhisper } from "../../common/schemas/admin.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { invalid, notFound } from "../core/errors.ts";
import { poems, remoteAccounts, users, whispers } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { fediverseOrigin } from "../interactions/interactions.ts";
import { remoteWhisperColumns } from "../interactions/whispers.ts";

const MODERATION_LIST_MAX = 500;

/** A whisper as the poet moderates it, with its poem and its author, here or on the fediverse. */
const moderatedWhisperColumns = {
  id: whispers.id,
  // The poet reads a long fediverse reply whole (decision 046).
  text: sql<string>`coalesce(${whispers.fullText}, ${whispers.text})`,
  isApproved: whispers.isApproved,
  isAwaitingApproval: whispers.isAwaitingApproval,
  createdAt: whispers.createdAt,
  stanzaIndex: whispers.stanzaIndex,
  stanzaCount: sql<number>`jsonb_array_length(${poems.stanzas})`,
  poemSlug: poems.slug,
  poemTitle: poems.title,
  user: {
    firstName: users.firstName,
    lastName: users.lastName,
    profileImageUrl: users.profileImageUrl,
    id: users.id,
    email: users.email,
    isAdmin: sql<boolean>`${users.role} = 'ADMIN'`,
    isBlocked: sql<boolean>`${users.blockedAt} is not null`,
  },
  remote: remoteWhisperColumns,
};

/**
 * The poet's moderation of readers' whispers (the Whispers tab). Nothing here is announced: no
 * page or cached answer holds whispers (writeContent in content-writes.ts).
 */
export function whisperModeration({ db }: Pick<ServiceDeps, "db">) {
  return {
    /**
     * Every whisper on a live poem, newest first, approved or hidden, with its poem and author
     * (a deleted poem's whispers wait with it in Recently deleted).
     */
    async listWhispers(_admin: AdminActor): Promise<ModeratedWhisper[]> {
      const rows = await db
        .select(moderatedWhisperColumns)
        .from(whispers)
        .innerJoin(poems, and(eq(poems.id, whispers.poemId), isLive(poems)))
        .innerJoin(users, eq(users.id, whispers.userId))
        .leftJoin(remoteAccounts, eq(remoteAccounts.userId, whispers.userId))
        .orderBy(desc(whispers.createdAt), desc(whispers.id))
        .limit(MODERATION_LIST_MAX);
      return rows.map(({ remote, ...row }) => ({
        ...row,
        stanzaIndex: Number(row.stanzaIndex),
        stanzaCount: Number(row.stanzaCount),
        fediverse: fediverseOrigin(remote),
      }));
    },

    /**
     * Moves a whisper to another stanza of its poem, as the poet moderates: a reply to the poem
     * from the fediverse lands on the first stanza and may belong to another. A whisper set aside
     * on a stanza a revision removed comes back on the stanza it is moved to.
     */
    async moveWhisper(_admin: AdminActor, id: number, stanzaIndex: number): Promise<void> {
      const [whisper] = await db
        .select({ stanzaCount: sql<number>`jsonb_array_length(${poems.stanzas})` })
        .from(whispers)
        .innerJoin(poems, and(eq(poems.id, whispers.poemId), isLive(poems)))
        .where(eq(whispers.id, id));
      if (!whisper) throw notFound("Whisper not found");
      const stanzaCount = Number(whisper.stanzaCount);
      if (stanzaIndex < 0 || stanzaIndex >= stanzaCount) {
        throw invalid(`stanzaIndex must be from 0 to ${stanzaCount - 1}`);
      }
      await db
        .update(whispers)
        .set({ stanzaIndex: String(stanzaIndex), removedWithVersionId: null })
        .where(eq(whispers.id, id));
    },

    /** Whispers on live poems waiting for the poet's approval: the count on the Whispers tab. */
    async countWhispersAwaitingApproval(_admin: AdminActor): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(whispers)
        .innerJoin(poems, and(eq(poems.id, whispers.poemId), isLive(poems)))
        .where(eq(whispers.isAwaitingApproval, true));
      return Number(row?.n ?? 0);
    },

    /**
     * Hidden whispers leave readers' lists at once, approved ones come back: the lists are read
     * afresh each time, so this write announces nothing (writeContent). Either way the poet has
     * decided, so the whisper no longer awaits approval.
     */
    async setWhisperApproval(_admin: AdminActor, id: number, isApproved: boolean): Promise<void> {
      const updated = await db
        .update(whispers)
        .set({ isApproved, isAwaitingApproval: false })
        .where(eq(whispers.id, id))
        .returning({ id: whispers.id });
      if (updated.length === 0) throw notFound("Whisper not found");
    },
  };
}
