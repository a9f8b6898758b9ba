import { SUBSCRIPTION_EMAIL_MAX_LENGTH } from "./constants.ts";

export const EMAIL_MESSAGE = "Please enter a valid email address";

/**
 * What counts as an email address here (the pattern zod's email check uses). Kept free of zod so
 * the forms on every page can check an address without loading a schema library.
 */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** The address trimmed and lowercased, or undefined when it is not one (docs/product/digest.md). */
export function parseEmail(value: string): string | undefined {
  const email = value.trim();
  if (email.length > SUBSCRIPTION_EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return undefined;
  return email.toLowerCase();
}
