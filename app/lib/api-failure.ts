import {
  ADMIN_LOGGED_OUT_REDIRECT_MS,
  EXPIRED_SESSION_REDIRECT_MS,
} from "../../common/constants.ts";
import { signInAddress } from "./sign-in.ts";
import { notifyError } from "./toast.ts";

/** Who is told: a reader on the site, or the poet in the admin area (SPEC.md §8). */
export type Audience = "reader" | "admin";

/** An ended session, in each audience's words, and how long before going to sign in. */
const SESSION_ENDED = {
  reader: {
    title: "Please sign in again",
    description: "Your session has expired. Redirecting to sign in...",
    redirectMs: EXPIRED_SESSION_REDIRECT_MS,
  },
  admin: {
    title: "Unauthorized",
    description: "You are logged out. Logging in again...",
    redirectMs: ADMIN_LOGGED_OUT_REDIRECT_MS,
  },
} as const;

const FAILURE_TITLE = { reader: "Something went awry", admin: "Error" } as const;

/** A 401 whose message names Unauthorized: the session ended (SPEC.md §8). */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/**
 * The one answer to a failed call (SPEC.md §8): an ended session says so and goes to sign-in
 * after the audience's delay; anything else toasts the action's own failure ('Your echo
 * couldn't be saved right now.', 'Failed to create poem').
 */
export function reportFailure(error: unknown, audience: Audience, description: string) {
  if (isSessionEnded(error)) {
    const ended = SESSION_ENDED[audience];
    notifyError(ended.title, ended.description);
    setTimeout(() => window.location.assign(signInAddress()), ended.redirectMs);
    return;
  }
  notifyError(FAILURE_TITLE[audience], description);
}
