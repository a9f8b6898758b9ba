import { and, desc, eq, isNotNull, isNull, like, or, sql } from "drizzle-orm";
import { joinDisplayName, splitDisplayName } from "../../common/display-name.ts";
import {
  ACCOUNT_ALREADY_DELETED,
  type AccountExport,
  type AccountInput,
  CANNOT_BLOCK_ADMIN,
  type ReaderAccount,
} from "../../common/schemas/account.ts";
import { stanzaLines } from "../../common/stanza.ts";
import type { Actor, AdminActor, SessionUser } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { invalid, notFound, unauthorized } from "../core/errors.ts";
import { type Database, rowsOf } from "../db/client.ts";
import {
  books,
  echoes,
  guestVoices,
  journalEntries,
  poems,
  rateLimits,
  sessions,
  siteSettings,
  subscriptions,
  users,
  verifications,
  whispers,
} from "../db/schema.ts";
import type { InteractionService } from "../interactions/interactions.ts";
import type { Mailer } from "../mail/transport.ts";
import type { AccountService } from "./accounts.ts";

function requireUser(actor: Actor): SessionUser {
  if (!actor) throw unauthorized();
  return actor;
}

/** A stored stanza key as the export shows it: '' (a whole-poem echo) is null. */
const stanzaOf = (key: string) => (key === "" ? null : Number(key));

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

/**
 * What a signed-in reader does with their own account on /account (their name and avatar, their
 * data, signing out everywhere, leaving), and the poet's block on a reader (decision 041).
 * Sessions and what this instance remembers of them belong to the accounts service; this one
 * tells it, and the interactions' memory, when a reader changes or goes.
 */
export function createReaderAccountService(
  deps: ServiceDeps & {
    accounts: AccountService;
    interactions: InteractionService;
    mailer: Pick<Mailer, "removeMailTo">;
  },
) {
  const { db, now, accounts, interactions, mailer } = deps;

  async function readAccount(userId: string): Promise<ReaderAccount & { createdAt: Date }> {
    const [row] = await db
      .select({
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        avatarUrl: users.profileImageUrl,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(eq(users.id, userId));
    // The session outlived its account by a moment (deleted in another tab, on another instance).
    // A fediverse author's row, which has no address, is no account (decision 046).
    if (!row?.email) throw notFound(ACCOUNT_ALREADY_DELETED);
    return {
      email: row.email,
      displayName: joinDisplayName(row.firstName, row.lastName),
      avatarUrl: row.avatarUrl,
      createdAt: row.createdAt,
    };
  }

  /** The poet blocks or unblocks a reader; an admin is never blocked. */
  async function setBlocked(_admin: AdminActor, userId: string, isBlocked: boolean) {
    const [reader] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
    if (!reader) throw notFound("Reader not found");
    if (reader.role === "ADMIN") throw invalid(CANNOT_BLOCK_ADMIN);
    // Only the reader's row changes: their whispers are hidden by it, never rewritten, so an
    // unblock brings back exactly the ones the poet had approved.
    await db
      .update(users)
      .set({ blockedAt: isBlocked ? now() : null })
      .where(
        and(eq(users.id, userId), isBlocked ? isNull(users.blockedAt) : isNotNull(users.blockedAt)),
      );
    accounts.rememberReaderChange(userId, { isBlocked });
  }

  return {
    async getAccount(actor: Actor): Promise<ReaderAccount> {
      const { createdAt: _, ...account } = await readAccount(requireUser(actor).id);
      return account;
    },

    /** Changes the name, the avatar or both; a field left out stays as it is. */
    async updateAccount(actor: Actor, input: AccountInput): Promise<ReaderAccount> {
      const user = requireUser(actor);
      const change: Partial<typeof users.$inferInsert> = {};
      if (input.displayName !== undefined) {
        Object.assign(change, splitDisplayName(input.displayName), {
          name: input.displayName ?? "",
        });
      }
      if (input.avatarUrl !== undefined) change.profileImageUrl = input.avatarUrl;
      if (Object.keys(change).length > 0) {
        const updated = await db
          .update(users)
          .set(change)
          .where(eq(users.id, user.id))
          .returning({ id: users.id });
        if (updated.length === 0) throw notFound(ACCOUNT_ALREADY_DELETED);
        accounts.rememberReaderChange(user.id, {
          ...(change.firstName !== undefined && {
            firstName: change.firstName,
            lastName: change.lastName ?? null,
          }),
          ...(change.profileImageUrl !== undefined && { profileImageUrl: change.profileImageUrl }),
        });
      }
      return this.getAccount(actor);
    },

    /**
     * Everything the site keeps of the reader: their account, journal, whispers, echoes and their
     * digest subscription (by their address; null when they never subscribed).
     */
    async exportAccount(actor: Actor): Promise<AccountExport> {
      const user = requireUser(actor);
      const account = await readAccount(user.id);
      const place = { poemSlug: poems.slug, poemTitle: poems.title, stanzas: poems.stanzas };
      const [journal, ownWhispers, ownEchoes, [subscription]] = await Promise.all([
        db
          .select({
            ...place,
            stanza: journalEntries.stanzaIndex,
            createdAt: journalEntries.createdAt,
          })
          .from(journalEntries)
          .innerJoin(poems, eq(poems.id, journalEntries.poemId))
          .where(eq(journalEntries.userId, user.id))
          .orderBy(desc(journalEntries.createdAt), desc(journalEntries.id)),
        db
          .select({
            ...place,
            stanza: whispers.stanzaIndex,
            createdAt: whispers.createdAt,
            text: whispers.text,
            isApproved: whispers.isApproved,
          })
          .from(whispers)
          .innerJoin(poems, eq(poems.id, whispers.poemId))
          .where(eq(whispers.userId, user.id))
          .orderBy(desc(whispers.createdAt), desc(whispers.id)),
        db
          .select({ ...place, stanza: echoes.stanzaIndex, createdAt: echoes.createdAt })
          .from(echoes)
          .innerJoin(poems, eq(poems.id, echoes.poemId))
          .where(eq(echoes.userId, user.id))
          .orderBy(desc(echoes.createdAt), desc(echoes.id)),
        db
          .select({
            email: subscriptions.email,
            subscribedAt: subscriptions.createdAt,
            confirmed: subscriptions.verified,
            confirmedAt: subscriptions.verifiedAt,
            unsubscribed: subscriptions.unsubscribed,
            unsubscribedAt: subscriptions.unsubscribedAt,
            consentSource: subscriptions.consentSource,
          })
          .from(subscriptions)
          .where(eq(subscriptions.email, account.email)),
      ]);
      const withStanza = <Row extends { stanza: string; stanzas: string[] }>({
        stanza,
        stanzas,
        ...row
      }: Row) => {
        const index = stanzaOf(stanza);
        const words = index === null ? undefined : stanzas[index];
        return {
          ...row,
          stanza: index === null ? null : index + 1,
          // Its lines one to a line, as the reader read them.
          stanzaText: words === undefined ? null : stanzaLines(words).join("\n"),
        };
      };
      return {
        exportedAt: now(),
        account,
        journal: journal.map(withStanza),
        whispers: ownWhispers.map(withStanza),
        echoes: ownEchoes.map(withStanza),
        digestSubscription: subscription ?? null,
      };
    },

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

    blockReader: (admin: AdminActor, userId: string) => setBlocked(admin, userId, true),
    unblockReader: (admin: AdminActor, userId: string) => setBlocked(admin, userId, false),
  };
}

export type ReaderAccountService = ReturnType<typeof createReaderAccountService>;
