import { count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { fediverseFollowers, remoteActors } from "../db/schema.ts";
import { hostUnder } from "./blocks.ts";

/**
 * The site actor's followers (docs/decisions/045-federation-layer.md): each a remote actor that
 * sent a Follow the site accepted, until its Undo, a block, or its account's deletion.
 */

export type RemoteActorRow = typeof remoteActors.$inferSelect;
export type RemoteActorDetails = Omit<RemoteActorRow, "updatedAt">;

/** Keeps what the actor's document says now; every activity from it refreshes the row. */
export async function saveRemoteActor(db: Database, actor: RemoteActorDetails): Promise<void> {
  const { id: _id, ...details } = actor;
  await db
    .insert(remoteActors)
    .values(actor)
    .onConflictDoUpdate({ target: remoteActors.id, set: { ...details, updatedAt: new Date() } });
}

export async function addFollower(db: Database, actorId: string, followId: string | null) {
  await db
    .insert(fediverseFollowers)
    .values({ actorId, followId })
    .onConflictDoUpdate({ target: fediverseFollowers.actorId, set: { followId } });
}

export async function removeFollowers(db: Database, actorIds: string[]): Promise<number> {
  if (actorIds.length === 0) return 0;
  const removed = await db
    .delete(fediverseFollowers)
    .where(inArray(fediverseFollowers.actorId, actorIds))
    .returning({ actorId: fediverseFollowers.actorId });
  return removed.length;
}

/** Removes every follower on a server (its host, port included when it has one). */
export async function removeFollowersOnServer(db: Database, server: string): Promise<number> {
  const removed = await db
    .delete(fediverseFollowers)
    .where(
      inArray(
        fediverseFollowers.actorId,
        db
          .select({ id: remoteActors.id })
          .from(remoteActors)
          .where(hostUnder(remoteActors.server, sql`${server}`)),
      ),
    )
    .returning({ actorId: fediverseFollowers.actorId });
  return removed.length;
}

export async function followerCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(fediverseFollowers);
  return row?.n ?? 0;
}

/** Followers, newest first, with what is known of each. */
export async function listFollowers(db: Database, options: { limit: number; offset: number }) {
  return db
    .select({
      actorId: remoteActors.id,
      handle: remoteActors.handle,
      name: remoteActors.name,
      avatarUrl: remoteActors.avatarUrl,
      profileUrl: remoteActors.profileUrl,
      server: remoteActors.server,
      inbox: remoteActors.inbox,
      sharedInbox: remoteActors.sharedInbox,
      since: fediverseFollowers.createdAt,
    })
    .from(fediverseFollowers)
    .innerJoin(remoteActors, eq(remoteActors.id, fediverseFollowers.actorId))
    .orderBy(desc(fediverseFollowers.createdAt), desc(fediverseFollowers.actorId))
    .limit(options.limit)
    .offset(options.offset);
}

/**
 * Where an activity for every follower goes: each follower's server's shared inbox where it has
 * one, its own inbox otherwise, each address once however many followers share it.
 */
export async function followerInboxes(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({
      inbox: sql<string>`coalesce(${remoteActors.sharedInbox}, ${remoteActors.inbox})`,
    })
    .from(fediverseFollowers)
    .innerJoin(remoteActors, eq(remoteActors.id, fediverseFollowers.actorId));
  return rows.map((row) => row.inbox).sort();
}
