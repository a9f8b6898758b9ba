import { eq } from "drizzle-orm";
import { joinDisplayName, splitDisplayName } from "../../common/display-name.ts";
import {
  ACCOUNT_ALREADY_DELETED,
  type AccountInput,
  type ReaderAccount,
} from "../../common/schemas/account.ts";
import type { Actor, SessionUser } from "../core/actor.ts";
import { notFound, unauthorized } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { ReaderAccountDeps } from "./reader-accounts.ts";

export function requireUser(actor: Actor): SessionUser {
  if (!actor) throw unauthorized();
  return actor;
}

export async function readAccount(
  db: Database,
  userId: string,
): Promise<ReaderAccount & { createdAt: Date }> {
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

/** The reader's account as /account shows it: their address, their name and their avatar. */
export function accountDetails({ db, accounts }: Pick<ReaderAccountDeps, "db" | "accounts">) {
  async function getAccount(actor: Actor): Promise<ReaderAccount> {
    const { createdAt: _, ...account } = await readAccount(db, requireUser(actor).id);
    return account;
  }

  return {
    getAccount,

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
      return getAccount(actor);
    },
  };
}
