import { eq, sql } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { remoteAccounts, users } from "../db/schema.ts";
import type { InteractionService } from "../interactions/interactions.ts";
import { boostCounts } from "./boost-counts.ts";
import { likeEchoes } from "./like-echoes.ts";
import { reactionsAdmin } from "./reactions-admin.ts";
import { remoteAuthors } from "./remote-authors.ts";
import { replyWhispers } from "./reply-whispers.ts";

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

/** What every group of reactions' use cases is built from. */
export type ReactionDeps = ServiceDeps & { interactions: InteractionService };

/** A remote author's stored account, by their actor id. */
function prepareKnownAuthor(db: Database) {
  // Read on every reply and like: parsed and planned once per connection (decision 026).
  return db
    .select(storedAccountColumns)
    .from(remoteAccounts)
    .leftJoin(users, eq(users.id, remoteAccounts.userId))
    .where(eq(remoteAccounts.actorUrl, sql.placeholder("actorUrl")))
    .prepare("fediverse_known_author");
}

export type KnownAuthorRead = ReturnType<typeof prepareKnownAuthor>;

/**
 * What replies, likes and boosts from the fediverse become on this site
 * (docs/decisions/046-fediverse-voices.md, docs/product/interactions.md): a reply to a stanza a
 * whisper on it (to the poem, on its first stanza), held hidden until the poet approves it; a
 * like an echo (of the poem, on the whole poem); a boost a count per poem for the poet. Each
 * names its poem or stanza by the object id this site gave it (server/fediverse/object-urls.ts);
 * an id that names nothing a reader may see now is ignored. The activities reach here already
 * verified: whose they are is the caller's word.
 */
export function createFediverseReactionService(
  deps: ServiceDeps & { interactions: InteractionService },
) {
  const authors = remoteAuthors(deps.db, prepareKnownAuthor(deps.db));
  return {
    ...replyWhispers(deps, authors),
    ...likeEchoes(deps, authors),
    ...boostCounts(deps, authors),
    ...reactionsAdmin(deps),
  };
}

export type FediverseReactionService = ReturnType<typeof createFediverseReactionService>;
