import { eq, like, or, sql } from "drizzle-orm";
import { ACCOUNT_ALREADY_DELETED } from "../../common/schemas/account.ts";
import type { Actor } from "../core/actor.ts";
import { notFound } from "../core/errors.ts";
import { type Database, rowsOf } from "../db/client.ts";
import {
  books,
  guestVoices,
  poems,
  rateLimits,
  sessions,
  siteSettings,
  subscriptions,
  users,
  verifications,
} from "../db/schema.ts";
import { requireUser } from "./account-details.ts";
import type { ReaderAccountDeps } from "./reader-accounts.ts";

/** Escapes LIKE's wildcards, so an address is matched as the characters it is. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * Whether a page still shows the image at `path` once its reader is gone: another reader's
 * avatar (a path can be chosen, not only uploaded), a cover, the poet's portrait, a guest voice.
 */
async function isImageShown(db: Pick<Database, "execute">, path: string): Promise<boolean> {
  const [row] = rowsOf<{ shown: boolean }>(
    await db.execute(
      sql`select exists (select 1 from ${users} where ${users.profileImageUrl} = ${path})
          or exists (select 1 from ${poems} where ${poems.coverUrl} = ${path})
          or exists (select 1 from ${books} where ${books.coverUrl} = ${path}
                     or ${books.pages}::text like ${`%${likeLiteral(path)}%`})
          or exists (select 1 from ${siteSettings} where ${siteSettings.portraitUrl} = ${path})
          or exists (select 1 from ${guestVoices}
                     where ${guestVoices.avatarUrl} = ${path} or ${guestVoices.headerImageUrl} = ${path})
          as shown`,
    ),
  );
  return row?.shown === true;
}

/** Signing out on every device, and leaving: the account deleted with everything of the reader's. */
export function accountLeaving({
  db,
  accounts,
  interactions,
  mailer,
}: Pick<ReaderAccountDeps, "db" | "accounts" | "interactions" | "mailer">) {
  return {
    /** Ends every session of the reader, on every device (this one's cookie is cleared by the route). */
    async signOutEverywhere(actor: Actor): Promise<void> {
      const user = requireUser(actor);
      await db.delete(sessions).where(eq(sessions.userId, user.id));
      accounts.forgetReaderSessions(user.id);
    },

    /**
     * Deletes the reader and everything of theirs: sessions, sign-in methods, echoes, whispers
     * and journal entries go with the user row (foreign keys cascade); their digest subscription,
     * pending sign-in links and rate-limit counters are keyed by their address or id, and go
     * here, and so does mail to them still held in the development outbox. Counts read afresh at
     * once on this instance. Answers the avatar image to remove from storage, when no page shows
     * it any more.
     */
    async deleteAccount(actor: Actor): Promise<{ unusedAvatar: string | null }> {
      const user = requireUser(actor);
      const { email, avatar } = await db.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(users)
          .where(eq(users.id, user.id))
          .returning({ email: users.email, avatar: users.profileImageUrl });
        // A fediverse author's row has no address and no session to get here (decision 046).
        if (!deleted?.email) throw notFound(ACCOUNT_ALREADY_DELETED);
        await tx.delete(subscriptions).where(eq(subscriptions.email, deleted.email));
        // A sign-in link waiting to be used keeps the address in its value (JSON).
        await tx
          .delete(verifications)
          .where(like(verifications.value, `%${likeLiteral(JSON.stringify(deleted.email))}%`));
        await tx
          .delete(rateLimits)
          .where(
            or(
              like(rateLimits.key, `%:${likeLiteral(user.id)}`),
              like(rateLimits.key, `%:${likeLiteral(deleted.email)}`),
            ),
          );
        const avatar =
          deleted.avatar && !(await isImageShown(tx, deleted.avatar)) ? deleted.avatar : null;
        return { email: deleted.email, avatar };
      });
      accounts.forgetReaderSessions(user.id);
      interactions.readerRemoved();
      await mailer.removeMailTo(email);
      return { unusedAvatar: avatar };
    },
  };
}
