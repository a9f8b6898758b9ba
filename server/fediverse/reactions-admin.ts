import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { FediverseReactions } from "../../common/schemas/admin.ts";
import type { AdminActor } from "../core/actor.ts";
import { echoes, poemBoosts, poems, remoteAccounts, users, whispers } from "../db/schema.ts";
import { isLive, onPoemStanzas } from "../db/visibility.ts";
import { hostUnder } from "./blocks.ts";
import type { ReactionDeps } from "./reactions.ts";

/** What the poet does with reactions: hides a blocked author's whispers, reads them per poem. */
export function reactionsAdmin({ db }: ReactionDeps) {
  return {
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
