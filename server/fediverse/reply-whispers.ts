import { and, eq, or, sql } from "drizzle-orm";
import { whispers } from "../db/schema.ts";
import { remoteLink, replyText, shownReplyText } from "../interactions/reply-text.ts";
import { findTarget } from "./reaction-targets.ts";
import type { ReactionDeps, Received, RemoteAuthor } from "./reactions.ts";
import type { RemoteAuthors } from "./remote-authors.ts";

/** A reply's words as stored: shown (at most 280 characters) and whole when longer. */
function replyWords(
  { config }: ReactionDeps,
  contentHtml: string,
): { text: string; fullText: string | null } | null {
  const whole = replyText(contentHtml, config.publicUrl.host);
  if (whole === "") return null;
  const shown = shownReplyText(whole);
  return { text: shown.text, fullText: shown.isCut ? whole : null };
}

/** Replies become whispers, held for the poet's approval; an edit or a delete follows them. */
export function replyWhispers(deps: ReactionDeps, authors: RemoteAuthors) {
  const { db, now } = deps;
  const { rememberAuthor, remoteUserOf } = authors;
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
      const target = await findTarget(deps, reply.inReplyTo);
      const words = replyWords(deps, reply.contentHtml);
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
      const words = replyWords(deps, reply.contentHtml);
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
  };
}
