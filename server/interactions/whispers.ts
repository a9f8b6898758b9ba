import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { shownLastName } from "../../common/display-name.ts";
import type { FediverseOrigin, SharedWhisper, Whisper } from "../../common/schemas/interactions.ts";
import type { Actor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { forbidden, notFound } from "../core/errors.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import type { Database } from "../db/client.ts";
import { poems, remoteAccounts, siteSettings, users, whispers } from "../db/schema.ts";
import { isLive, onPoemStanzas } from "../db/visibility.ts";
import {
  type InteractionMemory,
  requireUnblockedUser,
  requireUser,
  stanzaKey,
} from "./interaction-memory.ts";

/** A whisper's own columns, as its insert returns them. */
const ownWhisperColumns = {
  id: whispers.id,
  userId: whispers.userId,
  text: whispers.text,
  createdAt: whispers.createdAt,
};
/** A whisper's fediverse author and post, as readers and the poet's Whispers tab see them. */
export const remoteWhisperColumns = {
  name: remoteAccounts.name,
  handle: remoteAccounts.handle,
  server: remoteAccounts.server,
  profileUrl: remoteAccounts.profileUrl,
  postUrl: whispers.remoteUrl,
  isCut: sql<boolean>`${whispers.fullText} is not null`,
};

const whisperColumns = {
  ...ownWhisperColumns,
  user: {
    firstName: users.firstName,
    lastName: users.lastName,
    profileImageUrl: users.profileImageUrl,
  },
  remote: remoteWhisperColumns,
};

/**
 * Prepared once: each connection then only binds and executes it (decision 026). While the
 * poet holds new whispers for approval (site settings), the whisper is stored hidden, the state
 * an admin's Approve changes; the insert reads the setting itself, so it is exact on every
 * instance and costs no statement of its own.
 */
function prepareInsertWhisper(db: Database) {
  return db
    .insert(whispers)
    .values({
      poemId: sql.placeholder("poemId"),
      stanzaIndex: sql.placeholder("stanzaIndex"),
      userId: sql.placeholder("userId"),
      text: sql.placeholder("text"),
      isApproved: sql`not coalesce((select ${siteSettings.holdWhispers} from ${siteSettings}), false)`,
      isAwaitingApproval: sql`coalesce((select ${siteSettings.holdWhispers} from ${siteSettings}), false)`,
    })
    .returning({ ...ownWhisperColumns, isApproved: whispers.isApproved })
    .prepare("insert_whisper");
}

/** A reader's whispers on a stanza: written, listed for every reader, deleted by their author. */
export function readerWhispers(
  { db, rateLimiter }: Pick<ServiceDeps, "db"> & { rateLimiter: RateLimiter },
  memory: InteractionMemory,
) {
  const { findPoem, onPoem } = memory;
  const insertWhisper = prepareInsertWhisper(db);

  return {
    async createWhisper(
      actor: Actor,
      slug: string,
      stanzaIndex: number,
      text: string,
    ): Promise<SharedWhisper> {
      const user = requireUnblockedUser(actor);
      await rateLimiter.consume(RATE_LIMITS.whisperPerUser, user.id);
      const poem = await findPoem(actor, slug);
      const key = stanzaKey(poem, stanzaIndex);
      const [row] = await onPoem(slug, () =>
        insertWhisper.execute({ poemId: poem.id, stanzaIndex: key, userId: user.id, text }),
      );
      if (!row) throw new Error("whisper insert returned nothing");
      return {
        ...row,
        user: {
          firstName: user.firstName,
          lastName: user.lastName,
          profileImageUrl: user.profileImageUrl,
        },
        fediverse: null,
      };
    },

    /**
     * Approved whispers on one stanza, newest first, but none of a blocked reader's; a reply
     * from the fediverse with where it came from (decision 046). The reader's own whispers that
     * await the poet's approval are among them, marked so, for that reader only (decision 057).
     */
    async listWhispers(actor: Actor, slug: string, stanzaIndex: number): Promise<Whisper[]> {
      const poem = await findPoem(actor, slug);
      const isShown = actor
        ? or(
            eq(whispers.isApproved, true),
            and(eq(whispers.isAwaitingApproval, true), eq(whispers.userId, actor.id)),
          )
        : eq(whispers.isApproved, true);
      const rows = await db
        .select({ ...whisperColumns, isAwaitingApproval: whispers.isAwaitingApproval })
        .from(whispers)
        .innerJoin(users, eq(users.id, whispers.userId))
        .leftJoin(remoteAccounts, eq(remoteAccounts.userId, whispers.userId))
        .where(
          and(
            eq(whispers.poemId, poem.id),
            eq(whispers.stanzaIndex, stanzaKey(poem, stanzaIndex)),
            isShown,
            isNull(users.blockedAt),
            onPoemStanzas(whispers),
          ),
        )
        .orderBy(desc(whispers.createdAt), desc(whispers.id));
      // Everyone may read this list: the name as the page shows it, never the whole surname.
      return rows.map(({ remote, user, isAwaitingApproval, ...row }) => ({
        ...row,
        user: { ...user, lastName: shownLastName(user.firstName, user.lastName) },
        fediverse: fediverseOrigin(remote),
        ...(isAwaitingApproval ? { isAwaitingApproval } : {}),
      }));
    },

    /** Only its author may delete a whisper. */
    async deleteWhisper(actor: Actor, id: number): Promise<void> {
      const user = requireUser(actor);
      // A whisper on a deleted poem is kept with it, for a restore, and nobody's to delete.
      const [whisper] = await db
        .select({ userId: whispers.userId })
        .from(whispers)
        .innerJoin(poems, eq(poems.id, whispers.poemId))
        .where(and(eq(whispers.id, id), isLive(poems)));
      if (!whisper) throw notFound("Whisper not found");
      if (whisper.userId !== user.id) throw forbidden("You can only delete your own whispers");
      await db.delete(whispers).where(and(eq(whispers.id, id), eq(whispers.userId, user.id)));
    },
  };
}

/** A whisper's fediverse origin from its left-joined remote author: null for a reader's. */
export function fediverseOrigin(remote: {
  name: string | null;
  handle: string | null;
  server: string | null;
  profileUrl: string | null;
  postUrl: string | null;
  isCut: boolean;
}): FediverseOrigin | null {
  if (remote.handle === null || remote.server === null) return null;
  return { ...remote, handle: remote.handle, server: remote.server, isCut: Boolean(remote.isCut) };
}
