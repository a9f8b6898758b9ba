import { eq } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { sessions, users } from "../db/schema.ts";

/**
 * The operator's role changes (`npm run cli -- user:role`, a login link with --admin); the
 * addresses in ADMIN_EMAILS are made admins at sign-in instead (auth.ts).
 */
export function roles(
  { db }: Pick<ServiceDeps, "db">,
  sessionMemory: { forgetReaderSessions: (userId: string) => void },
) {
  return {
    /** Changes a role and ends the user's sessions, so the change holds on every device at once. */
    async setRole(email: string, role: "USER" | "ADMIN"): Promise<boolean> {
      const [user] = await db
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.email, email.trim().toLowerCase()));
      if (!user) return false;
      if (user.role !== role) {
        await db.transaction(async (tx) => {
          await tx.update(users).set({ role }).where(eq(users.id, user.id));
          await tx.delete(sessions).where(eq(sessions.userId, user.id));
        });
        // Its sessions are gone: this instance knows at once, others at the next confirmation.
        sessionMemory.forgetReaderSessions(user.id);
      }
      return true;
    },
  };
}

export type Roles = ReturnType<typeof roles>;
