import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import { echoes } from "../db/schema.ts";
import { findTarget, findUndoTarget } from "./reaction-targets.ts";
import type { ReactionDeps, Received, RemoteAuthor } from "./reactions.ts";
import type { RemoteAuthors } from "./remote-authors.ts";

/** Likes become echoes, and their Undo takes the echo back. */
export function likeEchoes(deps: ReactionDeps, authors: RemoteAuthors) {
  const { db, interactions } = deps;
  const { rememberAuthor, remoteUserOf } = authors;
  return {
    /**
     * A Like of a poem (an echo on the whole poem) or of a stanza (an echo on it). One author
     * counts once: a second Like of the same object keeps one echo, named by the latest Like.
     */
    async receiveLike(
      author: RemoteAuthor,
      like: { activityId: string; object: string },
    ): Promise<Received> {
      const target = await findTarget(deps, like.object);
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
      const target = await findUndoTarget(deps, like.object);
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
  };
}
