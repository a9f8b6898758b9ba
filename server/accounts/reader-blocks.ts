import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { CANNOT_BLOCK_ADMIN } from "../../common/schemas/account.ts";
import type { AdminActor } from "../core/actor.ts";
import { invalid, notFound } from "../core/errors.ts";
import { users } from "../db/schema.ts";
import type { ReaderAccountDeps } from "./reader-accounts.ts";

/** The poet's block on a reader (decision 041). */
export function readerBlocks({
  db,
  now,
  accounts,
}: Pick<ReaderAccountDeps, "db" | "now" | "accounts">) {
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
    blockReader: (admin: AdminActor, userId: string) => setBlocked(admin, userId, true),
    unblockReader: (admin: AdminActor, userId: string) => setBlocked(admin, userId, false),
  };
}
