import { desc, eq } from "drizzle-orm";
import { DECOY_FIELD } from "../../common/guest-submission-form.ts";
import type {
  GuestSubmission,
  GuestSubmissionInput,
} from "../../common/schemas/guest-submission.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import { guestSubmissions } from "../db/schema.ts";

/** The review list shows at most this many, newest first. */
const REVIEW_LIST_MAX = 500;

/** Poems sent through /contribute, stored for the monthly review at /admin/submissions. */
export function createGuestSubmissionService({
  db,
  now,
  rateLimiter,
}: ServiceDeps & { rateLimiter: RateLimiter }) {
  return {
    /**
     * Stores a submission. One with the decoy field filled came from a bot: it is answered like
     * any other and nothing is stored, so the bot learns nothing.
     */
    async submit(input: GuestSubmissionInput, clientAddress: string): Promise<void> {
      await rateLimiter.consume(RATE_LIMITS.guestSubmissionPerIp, clientAddress);
      if (input[DECOY_FIELD]?.trim()) return;
      await db.insert(guestSubmissions).values({
        name: input.name,
        email: input.email.toLowerCase(),
        handle: input.handle ?? null,
        socialUrl: input.socialUrl ?? null,
        bio: input.bio ?? null,
        poemTitle: input.poemTitle,
        poemText: input.poemText,
      });
    },

    async listSubmissions(_admin: AdminActor): Promise<GuestSubmission[]> {
      return db
        .select()
        .from(guestSubmissions)
        .orderBy(desc(guestSubmissions.createdAt), desc(guestSubmissions.id))
        .limit(REVIEW_LIST_MAX);
    },

    /** Marks a submission read; doing it again keeps the first date. */
    async markReviewed(_admin: AdminActor, id: number): Promise<void> {
      const [row] = await db
        .select({ reviewedAt: guestSubmissions.reviewedAt })
        .from(guestSubmissions)
        .where(eq(guestSubmissions.id, id));
      if (!row) throw notFound("Submission not found");
      if (row.reviewedAt) return;
      await db
        .update(guestSubmissions)
        .set({ reviewedAt: now() })
        .where(eq(guestSubmissions.id, id));
    },

    async deleteSubmission(_admin: AdminActor, id: number): Promise<void> {
      const deleted = await db
        .delete(guestSubmissions)
        .where(eq(guestSubmissions.id, id))
        .returning({ id: guestSubmissions.id });
      if (deleted.length === 0) throw notFound("Submission not found");
    },
  };
}

export type GuestSubmissionService = ReturnType<typeof createGuestSubmissionService>;
