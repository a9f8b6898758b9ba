import { z } from "zod/mini";
import { SUBSCRIPTION_EMAIL_MAX_LENGTH } from "../constants.ts";
import { EMAIL_MESSAGE, EMAIL_PATTERN } from "../email.ts";
import { digitsInText } from "./input.ts";

/** An email address as the digest accepts it (docs/product/digest.md), trimmed and lowercased. */
export const emailAddress = z.pipe(
  z
    .string(EMAIL_MESSAGE)
    .check(
      z.trim(),
      z.maxLength(SUBSCRIPTION_EMAIL_MAX_LENGTH, EMAIL_MESSAGE),
      z.regex(EMAIL_PATTERN, EMAIL_MESSAGE),
    ),
  z.transform((email) => email.toLowerCase()),
);

export const subscribeInput = z.object({ email: emailAddress });
export type SubscribeInput = z.infer<typeof subscribeInput>;

/**
 * POST /api/subscribe. `verificationUrl` comes only with development mail (no SMTP_URL), so a
 * developer can confirm without a mailbox.
 */
export const subscribeAnswer = z.object({
  message: z.string(),
  verificationUrl: z.optional(z.string()),
});

const INVALID_UNSUBSCRIBE_LINK = "Invalid unsubscribe link";

/** An unsubscribe link's query: the subscription's id and its signature. */
export const unsubscribeLink = z.object({
  s: digitsInText(9, INVALID_UNSUBSCRIBE_LINK),
  sig: z
    .string(INVALID_UNSUBSCRIBE_LINK)
    .check(z.minLength(1, INVALID_UNSUBSCRIBE_LINK), z.maxLength(200)),
});
