import { z } from "zod";
import { SUBSCRIPTION_EMAIL_MAX_LENGTH } from "../constants.ts";
import { EMAIL_MESSAGE, EMAIL_PATTERN } from "../email.ts";

/** An email address as the spec accepts it (SPEC.md §5), trimmed and lowercased. */
export const emailAddress = z
  .string(EMAIL_MESSAGE)
  .trim()
  .max(SUBSCRIPTION_EMAIL_MAX_LENGTH, EMAIL_MESSAGE)
  .regex(EMAIL_PATTERN, EMAIL_MESSAGE)
  .transform((email) => email.toLowerCase());

export const subscribeInput = z.object({ email: emailAddress });
export type SubscribeInput = z.infer<typeof subscribeInput>;

/**
 * POST /api/subscribe. `verificationUrl` comes only with development mail (no SMTP_URL), so a
 * developer can confirm without a mailbox.
 */
export const subscribeAnswer = z.object({
  message: z.string(),
  verificationUrl: z.string().optional(),
});
