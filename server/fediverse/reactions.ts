import { and, count, desc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { FediverseReactions } from "../../common/schemas/admin.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { isUniqueViolation } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { echoes, poemBoosts, poems, remoteAccounts, users, whispers } from "../db/schema.ts";
import { isLive, onPoemStanzas } from "../db/visibility.ts";
import type { InteractionService } from "../interactions/interactions.ts";
import { remoteLabel, remoteLink, replyText, shownReplyText } from "../interactions/reply-text.ts";
import { hostUnder } from "./blocks.ts";
import { readPoemObjectUrl } from "./object-urls.ts";

/**
 * A fediverse account as an inbound activity names it, its details read from its actor
 * document by whoever verified the activity.
 */
export interface RemoteAuthor {
  /** The actor's id. */
  actorUrl: string;
  /** "@name@server". */
  handle: string;
  name: string | null;
  avatarUrl: string | null;
  profileUrl: string | null;
  /** The host of the actor's server. */
  server: string;
  /**
   * The account as the site keeps it, when the caller read it with the activity's sender: the
   * service then reads it no second time.
   */
  stored?: StoredAccount;
}

/** A remote account's row as this service reads it, with whether the poet blocked its user. */
export interface StoredAccount {
  id: number;
  /** Null until its first reply, like or boost. */
  userId: string | null;
  handle: string;
  name: string | null;
  avatarUrl: string | null;
  profileUrl: string | null;
  server: string;
  blockedAt: Date | null;
}

/** What an inbound activity became: stored, or ignored (it names nothing readers may see). */
export type Received = "stored" | "ignored";

/** Lengths kept of a remote actor's own fields: no page has room for more. */
const NAME_MAX = 100;
const HANDLE_MAX = 300;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The remote author is new and another activity of theirs made them first: read them again. */
class AuthorMadeMeanwhile extends Error {}

/** The columns of a StoredAccount, for a read from `remote_accounts` left-joined to `users`. */
export const storedAccountColumns = {
  id: remoteAccounts.id,
  userId: remoteAccounts.userId,
  handle: remoteAccounts.handle,
  name: remoteAccounts.name,
  avatarUrl: remoteAccounts.avatarUrl,
  profileUrl: remoteAccounts.profileUrl,
  server: remoteAccounts.server,
  blockedAt: users.blockedAt,
};

/**
 * What replies, likes and boosts from the fediverse become on this site
 * (docs/decisions/046-fediverse-voices.md, docs/product/interactions.md): a reply to a stanza a
 * whisper on it (to the poem, on its first stanza), held hidden until the poet approves it; a
 * like an echo (of the poem, on the whole poem); a boost a count per poem for the poet. Each
 * names its poem or stanza by the object id this site gave it (server/fediverse/object-urls.ts);
 * an id that names nothing a reader may see now is ignored. The activities reach here already
 * verified: whose they are is the caller's word.
 */
export function createFediverseReactionService({
  db,
  config,
  now,
  interactions,
}: ServiceDeps & { interactions: InteractionService }) {
  // Read on every reply and like: parsed and planned once per connection (decision 026).
  const knownAuthor = db
    .select(storedAccountColumns)
    .from(remoteAccounts)
    .leftJoin(users, eq(users.id, remoteAccounts.userId))
    .where(eq(remoteAccounts.actorUrl, sql.placeholder("actorUrl")))
    .prepare("fediverse_known_author");

  /** The published poem and stanza an object id names; null for anything else. */
  async function findTarget(
    objectId: string,
  ): Promise<{ poemId: number; stanzaIndex: number | null } | null> {
    const ref = readPoemObjectUrl(config.publicUrl, objectId);
    if (!ref) return null;
    const poem = await interactions.publishedPoem(ref.slug);
    if (!poem) return null;
    if (ref.stanzaIndex !== null && ref.stanzaIndex >= poem.stanzaCount) return null;
    return { poemId: poem.id, stanzaIndex: ref.stanzaIndex };
  }

  /**
   * The live poem (published or not) and stanza an object id names, for taking back what was
   * given to it: an Undo holds even after the poem was unpublished.
   */
  async function findUndoTarget(
    objectId: string | null,
  ): Promise<{ poemId: number; stanzaKey: string } | null> {
    const ref = objectId === null ? null : readPoemObjectUrl(config.publicUrl, objectId);
    if (!ref) return null;
    const [poem] = await db
      .select({ id: poems.id })
      .from(poems)
      .where(and(eq(poems.slug, ref.slug), isLive(poems)));
    if (!poem) return null;
    return { poemId: poem.id, stanzaKey: ref.stanzaIndex === null ? "" : String(ref.stanzaIndex) };
  }

  function authorDetails(author: RemoteAuthor) {
    const handle = remoteLabel(author.handle, HANDLE_MAX) ?? author.actorUrl;
    return {
      handle,
      name: remoteLabel(author.name, NAME_MAX),
      avatarUrl: remoteLink(author.avatarUrl),
      profileUrl: remoteLink(author.profileUrl),
      server: author.server.trim().toLowerCase(),
    };
  }

  /** What readers' shapes show as the author's first name: their name, else their handle. */
  const shownName = (details: { name: string | null; handle: string }) =>
    details.name ?? details.handle;

  /**
   * The remote author's user row and details, made at their first reply, like or boost and kept
   * up to date with each one after. A blocked author (decision 041) gets nothing stored: null.
   */
  async function rememberAuthor(
    author: RemoteAuthor,
  ): Promise<{ id: number; userId: string } | null> {
    const details = authorDetails(author);
    let stored = author.stored;
    for (;;) {
      const known = stored ?? (await knownAuthor.execute({ actorUrl: author.actorUrl }))[0];
      stored = undefined;
      const userId = known?.userId;
      if (known && userId) {
        if (known.blockedAt !== null) return null;
        const changed = (Object.keys(details) as (keyof typeof details)[]).some(
          (key) => known[key] !== details[key],
        );
        if (changed) {
          await db.transaction(async (tx) => {
            await tx
              .update(remoteAccounts)
              .set({ ...details, updatedAt: new Date() })
              .where(eq(remoteAccounts.id, known.id));
            await tx
              .update(users)
              .set({ name: shownName(details), firstName: shownName(details) })
              .where(eq(users.id, userId));
          });
        }
        return { id: known.id, userId };
      }
      try {
        return await db.transaction(async (tx) => makeAuthor(tx, author.actorUrl, details));
      } catch (error) {
        if (!(error instanceof AuthorMadeMeanwhile) && !isUniqueViolation(error)) throw error;
      }
    }
  }

  async function makeAuthor(
    tx: Transaction,
    actorUrl: string,
    details: ReturnType<typeof authorDetails>,
  ): Promise<{ id: number; userId: string }> {
    const [user] = await tx
      .insert(users)
      .values({
        email: null,
        isRemote: true,
        name: shownName(details),
        firstName: shownName(details),
      })
      .returning({ id: users.id });
    if (!user) throw new Error("remote user insert returned nothing");
    // The account may be known already (a follower, or a sender whose activity stored nothing):
    // it gets its user row unless another activity gave it one meanwhile.
    const [made] = await tx
      .insert(remoteAccounts)
      .values({ userId: user.id, actorUrl, ...details })
      .onConflictDoUpdate({
        target: remoteAccounts.actorUrl,
        set: { userId: user.id, ...details, updatedAt: new Date() },
        setWhere: isNull(remoteAccounts.userId),
      })
      .returning({ id: remoteAccounts.id });
    // Rolled back, user row and all: the author another activity made is the one.
    if (!made) throw new AuthorMadeMeanwhile();
    return { id: made.id, userId: user.id };
  }

  /** The account and user id of a known remote author (one with a user row), or null. */
  const remoteUserOf = (actorUrl: string) =>
    db
      .select({ id: remoteAccounts.id, userId: sql<string>`${remoteAccounts.userId}` })
      .from(remoteAccounts)
      .where(and(eq(remoteAccounts.actorUrl, actorUrl), isNotNull(remoteAccounts.userId)))
      .then(([found]) => found ?? null);

  /** A reply's words as stored: shown (at most 280 characters) and whole when longer. */
  function replyWords(contentHtml: string): { text: string; fullText: string | null } | null {
    const whole = replyText(contentHtml, config.publicUrl.host);
    if (whole === "") return null;
    const shown = shownReplyText(whole);
    return { text: shown.text, fullText: shown.isCut ? whole : null };
  }

  return {
    /**
     * A Create(Note) answering a poem or one of its stanzas: a whisper on that stanza (on the
     * first for the poem), hidden until the poet approves it. A repeated Create stores nothing
     * twice; one whose words are only the mention of this site is ignored.
     */
    async receiveReply(
      author: RemoteAuthor,
      reply: {
        noteId: string;
        url: string | null;
        inReplyTo: string;
        contentHtml: string;
        published: Date | null;
      },
    ): Promise<Received> {
      const target = await findTarget(reply.inReplyTo);
      const words = replyWords(reply.contentHtml);
      if (!target || !words) return "ignored";
      const writer = await rememberAuthor(author);
      if (!writer) return "ignored";
      const asOf = now();
      // When it was written, as its server says, but never later than now: a reply dated in
      // the future would stay on top of the poet's list.
      const createdAt =
        reply.published && reply.published.getTime() < asOf.getTime() ? reply.published : asOf;
      await db
        .insert(whispers)
        .values({
          poemId: target.poemId,
          stanzaIndex: String(target.stanzaIndex ?? 0),
          userId: writer.userId,
          ...words,
          isApproved: false,
          isAwaitingApproval: true,
          remoteNoteId: reply.noteId,
          remoteUrl: remoteLink(reply.url) ?? remoteLink(reply.noteId),
          createdAt,
        })
        .onConflictDoNothing({ target: whispers.remoteNoteId });
      return "stored";
    },

    /**
     * An Update of a reply its author wrote: its words change, and it waits for the poet's
     * approval again, since what they approved was other words.
     */
    async updateReply(
      author: RemoteAuthor,
      reply: { noteId: string; contentHtml: string },
    ): Promise<void> {
      const writer = await remoteUserOf(author.actorUrl);
      const words = replyWords(reply.contentHtml);
      if (!writer || !words) return;
      await db
        .update(whispers)
        .set({ ...words, isApproved: false, isAwaitingApproval: true })
        .where(
          and(
            eq(whispers.remoteNoteId, reply.noteId),
            eq(whispers.userId, writer.userId),
            or(
              sql`${whispers.text} is distinct from ${words.text}`,
              sql`${whispers.fullText} is distinct from ${words.fullText}`,
            ),
          ),
        );
      await rememberAuthor(author);
    },

    /** A Delete of a reply: its whisper goes, if its author is the one deleting. */
    async deleteReply(actorUrl: string, noteId: string): Promise<void> {
      const writer = await remoteUserOf(actorUrl);
      if (!writer) return;
      await db
        .delete(whispers)
        .where(and(eq(whispers.remoteNoteId, noteId), eq(whispers.userId, writer.userId)));
    },

    /**
     * A Like of a poem (an echo on the whole poem) or of a stanza (an echo on it). One author
     * counts once: a second Like of the same object keeps one echo, named by the latest Like.
     */
    async receiveLike(
      author: RemoteAuthor,
      like: { activityId: string; object: string },
    ): Promise<Received> {
      const target = await findTarget(like.object);
      if (!target) return "ignored";
      const liker = await rememberAuthor(author);
      if (!liker) return "ignored";
      await db.execute(sql`
        insert into ${echoes} (poem_id, stanza_index, user_id, remote_activity_id)
        values (${target.poemId}, ${target.stanzaIndex === null ? "" : String(target.stanzaIndex)},
                ${liker.userId}, ${like.activityId})
        on conflict on constraint echos_poem_stanza_user_session_key
        do update set remote_activity_id = excluded.remote_activity_id`);
      interactions.echoesWritten(target.poemId);
      return "stored";
    },

    /** An Undo(Like): the echo it made goes, found by the Like's id or by its object. */
    async undoLike(
      actorUrl: string,
      like: { activityId: string | null; object: string | null },
    ): Promise<void> {
      const liker = await remoteUserOf(actorUrl);
      if (!liker) return;
      const target = await findUndoTarget(like.object);
      const which: SQL[] = [];
      if (like.activityId !== null) which.push(eq(echoes.remoteActivityId, like.activityId));
      if (target) {
        which.push(
          and(eq(echoes.poemId, target.poemId), eq(echoes.stanzaIndex, target.stanzaKey)) as SQL,
        );
      }
      if (which.length === 0) return;
      const removed = await db
        .delete(echoes)
        .where(and(eq(echoes.userId, liker.userId), isNull(echoes.sessionId), or(...which)))
        .returning({ poemId: echoes.poemId });
      for (const { poemId } of removed) interactions.echoesWritten(poemId);
    },

    /** An Announce (boost) of a poem or of one of its stanzas: counted once per author and poem. */
    async receiveAnnounce(
      author: RemoteAuthor,
      boost: { activityId: string; object: string },
    ): Promise<Received> {
      const target = await findTarget(boost.object);
      if (!target) return "ignored";
      const booster = await rememberAuthor(author);
      if (!booster) return "ignored";
      await db
        .insert(poemBoosts)
        .values({
          poemId: target.poemId,
          remoteAccountId: booster.id,
          activityId: boost.activityId,
        })
        .onConflictDoUpdate({
          target: [poemBoosts.remoteAccountId, poemBoosts.poemId],
          set: { activityId: boost.activityId },
        });
      return "stored";
    },

    /** An Undo(Announce): the boost goes, found by the Announce's id or by its object's poem. */
    async undoAnnounce(
      actorUrl: string,
      boost: { activityId: string | null; object: string | null },
    ): Promise<void> {
      const booster = await remoteUserOf(actorUrl);
      if (!booster) return;
      const target = await findUndoTarget(boost.object);
      const which: SQL[] = [];
      if (boost.activityId !== null) which.push(eq(poemBoosts.activityId, boost.activityId));
      if (target) which.push(eq(poemBoosts.poemId, target.poemId));
      if (which.length === 0) return;
      await db
        .delete(poemBoosts)
        .where(and(eq(poemBoosts.remoteAccountId, booster.id), or(...which)));
    },

    /**
     * Hides every whisper of one remote author, or of every author on one server (the poet
     * blocked them): answers how many were showing and are hidden now.
     */
    async hideWhispersOf(match: { actorUrl: string } | { server: string }): Promise<number> {
      const authors = db
        .select({ userId: remoteAccounts.userId })
        .from(remoteAccounts)
        .where(
          "actorUrl" in match
            ? eq(remoteAccounts.actorUrl, match.actorUrl)
            : hostUnder(remoteAccounts.server, sql`${match.server.trim().toLowerCase()}`),
        );
      const hidden = await db
        .update(whispers)
        .set({ isApproved: false, isAwaitingApproval: false })
        .where(and(inArray(whispers.userId, authors), eq(whispers.isApproved, true)))
        .returning({ id: whispers.id });
      return hidden.length;
    },

    /**
     * Per live poem with any: its boosts, its likes (echoes by fediverse authors, on stanzas the
     * poem still has) and its replies (whispers by them, approved or waiting), most first.
     */
    async reactions(_admin: AdminActor): Promise<FediverseReactions> {
      const boosts = db
        .select({ poemId: poemBoosts.poemId, n: count().as("boost_count") })
        .from(poemBoosts)
        .groupBy(poemBoosts.poemId)
        .as("boosts");
      const likes = db
        .select({ poemId: echoes.poemId, n: count().as("like_count") })
        .from(echoes)
        .innerJoin(users, and(eq(users.id, echoes.userId), eq(users.isRemote, true)))
        .where(onPoemStanzas(echoes))
        .groupBy(echoes.poemId)
        .as("likes");
      const replies = db
        .select({ poemId: whispers.poemId, n: count().as("reply_count") })
        .from(whispers)
        .where(sql`${whispers.remoteNoteId} is not null`)
        .groupBy(whispers.poemId)
        .as("replies");
      const rows = await db
        .select({
          poemId: poems.id,
          slug: poems.slug,
          title: poems.title,
          boosts: sql<number>`coalesce(${boosts.n}, 0)::int`,
          likes: sql<number>`coalesce(${likes.n}, 0)::int`,
          replies: sql<number>`coalesce(${replies.n}, 0)::int`,
        })
        .from(poems)
        .leftJoin(boosts, eq(boosts.poemId, poems.id))
        .leftJoin(likes, eq(likes.poemId, poems.id))
        .leftJoin(replies, eq(replies.poemId, poems.id))
        .where(
          and(
            isLive(poems),
            sql`coalesce(${boosts.n}, 0) + coalesce(${likes.n}, 0) + coalesce(${replies.n}, 0) > 0`,
          ),
        )
        .orderBy(
          desc(sql`coalesce(${boosts.n}, 0) + coalesce(${likes.n}, 0) + coalesce(${replies.n}, 0)`),
          desc(poems.id),
        );
      return rows.map((row) => ({
        ...row,
        boosts: Number(row.boosts),
        likes: Number(row.likes),
        replies: Number(row.replies),
      }));
    },
  };
}

export type FediverseReactionService = ReturnType<typeof createFediverseReactionService>;
