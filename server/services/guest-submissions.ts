import { DECOY_FIELD, type GuestSubmissionInput } from "../../common/schemas/guest-submission.ts";
import { guestSubmissions } from "../db/schema.ts";
import type { ServiceDeps } from "./deps.ts";
import { RATE_LIMITS, type RateLimiter } from "./rate-limit.ts";

/** Poems sent through /contribute, stored for the monthly review. */
export function createGuestSubmissionService({
  db,
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
  };
}
