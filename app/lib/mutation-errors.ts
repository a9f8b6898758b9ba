import { EXPIRED_SESSION_REDIRECT_MS } from "../../common/constants.ts";
import { isUnauthorizedError } from "./api.ts";
import { notifyError } from "./toast.ts";

/**
 * A reader-side mutation failed (SPEC.md §8): an expired session goes back to sign-in after 1
 * second; anything else gets the action's own 'Something went awry' message.
 */
export function reportMutationError(error: unknown, failureDescription: string) {
  if (isUnauthorizedError(error)) {
    notifyError("Please sign in again", "Your session has expired. Redirecting to sign in...");
    setTimeout(() => window.location.assign("/api/login"), EXPIRED_SESSION_REDIRECT_MS);
    return;
  }
  notifyError("Something went awry", failureDescription);
}
