import { count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { fediverseFollowers, remoteAccounts } from "../db/schema.ts";
import { hostUnder } from "./blocks.ts";

/**
 * The site actor's followers (docs/decisions/045-federation-layer.md): each a remote account
 * that sent a Follow the site accepted, until its Undo, a block, or its account's deletion.
 */

/** What an actor document says of its account, as `remote_accounts` keeps it. */
export type RemoteActorDetails = Pick<
  typeof remoteAccounts.$inferInsert,
  | "actorUrl"
  | "handle"
  | "name"
  | "avatarUrl"
  | "profileUrl"
  | "inbox"
  | "sharedInbox"
  | "publicKeyId"
  | "server"
>;

/** Keeps what the actor's document says now; every fresh read of it refreshes the row. */
export async function saveRemoteActor(db: Database, actor: RemoteActorDetails): Promise<void> {
  const { actorUrl: _actorUrl, ...details } = actor;
  await db
    .insert(remoteAccounts)
    .values(actor)
    .onConflictDoUpdate({
      target: remoteAccounts.actorUrl,
      set: { ...details, updatedAt: new Date() },
    });
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
          .select({ actorUrl: remoteAccounts.actorUrl })
          .from(remoteAccounts)
          .where(hostUnder(remoteAccounts.server, sql`${server}`)),
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
      actorId: remoteAccounts.actorUrl,
      handle: remoteAccounts.handle,
      name: remoteAccounts.name,
      avatarUrl: remoteAccounts.avatarUrl,
      profileUrl: remoteAccounts.profileUrl,
      server: remoteAccounts.server,
      inbox: remoteAccounts.inbox,
      sharedInbox: remoteAccounts.sharedInbox,
      since: fediverseFollowers.createdAt,
    })
    .from(fediverseFollowers)
    .innerJoin(remoteAccounts, eq(remoteAccounts.actorUrl, fediverseFollowers.actorId))
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
      inbox: sql<string>`coalesce(${remoteAccounts.sharedInbox}, ${remoteAccounts.inbox})`,
    })
    .from(fediverseFollowers)
    .innerJoin(remoteAccounts, eq(remoteAccounts.actorUrl, fediverseFollowers.actorId))
    // A follower's actor document was read when it followed; an account without an inbox never
    // had its document kept (an author carried over from before one table held both).
    .where(isNotNull(sql`coalesce(${remoteAccounts.sharedInbox}, ${remoteAccounts.inbox})`));
  return rows.map((row) => row.inbox).sort();
}
