import type { InboxContext } from "@fedify/fedify";
import { type Activity, type Actor, getActorHandle, isActor, type Recipient } from "@fedify/vocab";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { remoteAccounts, users } from "../../db/schema.ts";
import type { Logger } from "../../logger.ts";
import { isBlocked, isBlockedColumn, serverOf } from "../blocks.ts";
import { saveRemoteActor } from "../followers.ts";
import {
  type FediverseReactionService,
  type RemoteAuthor,
  storedAccountColumns,
} from "../reactions.ts";

/**
 * What every inbox handler works with (docs/decisions/045-federation-layer.md). Each activity
 * type has its own file beside this one; each first learns who sent it (their actor document,
 * fetched through Fedify and kept in `remote_accounts`) and drops it when the poet blocked them.
 * What a reply, a like or a boost becomes on the site is the reactions service's to decide.
 */

/** What replies, likes and boosts become on the site: the reactions service's part. */
export type InboxReactions = Pick<
  FediverseReactionService,
  | "receiveReply"
  | "updateReply"
  | "deleteReply"
  | "receiveLike"
  | "undoLike"
  | "receiveAnnounce"
  | "undoAnnounce"
  | "hideWhispersOf"
>;

export interface InboxDeps {
  db: Database;
  logger: Logger;
  publicUrl: URL;
  /** The site actor's identifier (FEDIVERSE_HANDLE). */
  handle: string;
  reactions: InboxReactions;
  /** What the site knows of a sender, and whether the poet blocked them (prepareSenderRead). */
  knownSender: ReturnType<typeof prepareSenderRead>;
  /** Told of each new follower, so insights count their server as the fediverse at once. */
  onFollower?: () => Promise<void>;
}

/**
 * What the site keeps of an actor's account (the reactions service's part included, so it need
 * not read it again) and whether the poet blocked their account or server, in one prepared
 * statement: read on every inbound activity.
 */
export function prepareSenderRead(db: Database) {
  const read = db
    .select({
      ...storedAccountColumns,
      inbox: remoteAccounts.inbox,
      sharedInbox: remoteAccounts.sharedInbox,
      updatedAt: remoteAccounts.updatedAt,
      blocked: isBlockedColumn(db),
    })
    .from(remoteAccounts)
    .leftJoin(users, eq(users.id, remoteAccounts.userId))
    .where(eq(remoteAccounts.actorUrl, sql.placeholder("actorUrl")))
    .prepare("fediverse_known_sender");
  return async (actorId: URL) => {
    const [row] = await read.execute({ actorUrl: actorId.href, server: serverOf(actorId) });
    return row;
  };
}

export type Context = InboxContext<void>;

/** How long what was read of a remote actor is used before its document is fetched again. */
const ACTOR_FRESH_MS = 6 * 60 * 60 * 1000;

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const string = String(value).trim();
  return string === "" ? null : string;
}

/**
 * The sender of an activity, read from its actor document and remembered; null when it cannot be
 * read or is not an actor, or when the poet blocked its account or its server.
 */
export async function senderOf(
  deps: InboxDeps,
  ctx: Context,
  activity: Activity,
  options: { isRefreshed?: boolean } = {},
): Promise<{ recipient: Recipient; author: RemoteAuthor } | null> {
  const actorId = activity.actorId;
  if (!actorId) return null;
  // What the site read of the actor lately stands, so a busy account's every reply does not
  // fetch its document again; an Update of the actor reads it afresh. The same read says
  // whether the poet blocked them; an actor not read before is looked up in the blocks alone.
  const known = options.isRefreshed ? undefined : await deps.knownSender(actorId);
  if (known ? known.blocked : await isBlocked(deps.db, actorId)) return null;
  // An account whose document was never kept (no inbox) is read now.
  if (known?.inbox && Date.now() - known.updatedAt.getTime() < ACTOR_FRESH_MS) {
    const { inbox, sharedInbox, updatedAt: _, blocked: __, ...stored } = known;
    return {
      recipient: {
        id: actorId,
        inboxId: new URL(inbox),
        endpoints: sharedInbox ? { sharedInbox: new URL(sharedInbox) } : null,
      },
      author: {
        actorUrl: actorId.href,
        handle: known.handle,
        name: known.name,
        avatarUrl: known.avatarUrl,
        profileUrl: known.profileUrl,
        server: known.server,
        stored,
      },
    };
  }
  let actor: Actor;
  try {
    const fetched = await activity.getActor(ctx);
    if (!fetched || !isActor(fetched) || fetched.id?.href !== actorId.href) return null;
    actor = fetched;
  } catch (error) {
    deps.logger.info({ err: error, actor: actorId.href }, "fediverse actor could not be read");
    return null;
  }
  const server = serverOf(actorId);
  const handle = actor.preferredUsername
    ? `@${actor.preferredUsername}@${actorId.host}`
    : await getActorHandle(actor).catch(() => `@${actorId.pathname.split("/").pop()}@${server}`);
  const icon = await actor.getIcon(ctx).catch(() => null);
  const avatar = icon?.url instanceof URL ? icon.url : (icon?.url?.href ?? null);
  const inbox = actor.inboxId;
  if (!inbox) return null;
  const author: RemoteAuthor = {
    actorUrl: actorId.href,
    handle,
    name: text(actor.name),
    avatarUrl: avatar ? avatar.href : null,
    profileUrl: actor.url instanceof URL ? actor.url.href : (actor.url?.href?.href ?? null),
    server,
  };
  await saveRemoteActor(deps.db, {
    actorUrl: author.actorUrl,
    handle: author.handle,
    name: author.name,
    avatarUrl: author.avatarUrl,
    profileUrl: author.profileUrl,
    inbox: inbox.href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    publicKeyId: actor.publicKeyId?.href ?? null,
    server,
  });
  return { recipient: actor, author };
}
