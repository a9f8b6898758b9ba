import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { isUniqueViolation } from "../core/errors.ts";
import type { Database, Transaction } from "../db/client.ts";
import { remoteAccounts, users } from "../db/schema.ts";
import { remoteLabel, remoteLink } from "../interactions/reply-text.ts";
import type { KnownAuthorRead, RemoteAuthor } from "./reactions.ts";

/**
 * The fediverse authors of replies, likes and boosts: each a `users` row marked remote, referenced
 * from their `remote_accounts` row from the first one (docs/decisions/075-one-table-of-remote-accounts.md).
 */

/** Lengths kept of a remote actor's own fields: no page has room for more. */
const NAME_MAX = 100;
const HANDLE_MAX = 300;

/** The remote author is new and another activity of theirs made them first: read them again. */
class AuthorMadeMeanwhile extends Error {}

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

/** Remembers remote authors and finds them again, reading a known one by `knownAuthor`. */
export function remoteAuthors(db: Database, knownAuthor: KnownAuthorRead) {
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

  /** The account and user id of a known remote author (one with a user row), or null. */
  const remoteUserOf = (actorUrl: string) =>
    db
      .select({ id: remoteAccounts.id, userId: sql<string>`${remoteAccounts.userId}` })
      .from(remoteAccounts)
      .where(and(eq(remoteAccounts.actorUrl, actorUrl), isNotNull(remoteAccounts.userId)))
      .then(([found]) => found ?? null);

  return { rememberAuthor, remoteUserOf };
}

export type RemoteAuthors = ReturnType<typeof remoteAuthors>;

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
