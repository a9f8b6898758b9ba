import { and, eq, or, type SQL } from "drizzle-orm";
import { poemBoosts } from "../db/schema.ts";
import { findTarget, findUndoTarget } from "./reaction-targets.ts";
import type { ReactionDeps, Received, RemoteAuthor } from "./reactions.ts";
import type { RemoteAuthors } from "./remote-authors.ts";

/** Boosts become a count per poem and author, and their Undo takes the count back. */
export function boostCounts(deps: ReactionDeps, authors: RemoteAuthors) {
  const { db } = deps;
  const { rememberAuthor, remoteUserOf } = authors;
  return {
    /** An Announce (boost) of a poem or of one of its stanzas: counted once per author and poem. */
    async receiveAnnounce(
      author: RemoteAuthor,
      boost: { activityId: string; object: string },
    ): Promise<Received> {
      const target = await findTarget(deps, boost.object);
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
      const target = await findUndoTarget(deps, boost.object);
      const which: SQL[] = [];
      if (boost.activityId !== null) which.push(eq(poemBoosts.activityId, boost.activityId));
      if (target) which.push(eq(poemBoosts.poemId, target.poemId));
      if (which.length === 0) return;
      await db
        .delete(poemBoosts)
        .where(and(eq(poemBoosts.remoteAccountId, booster.id), or(...which)));
    },
  };
}
