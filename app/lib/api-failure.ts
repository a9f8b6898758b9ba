import {
  ADMIN_LOGGED_OUT_REDIRECT_MS,
  EXPIRED_SESSION_REDIRECT_MS,
} from "../../common/constants.ts";
import { notifyError } from "./toast.ts";

/**
 * Where the failure is told, and so in whose words: on the reader's site, or in the poet's admin
 * area (docs/product/api.md). Not the page cache's Audience (common/session.ts).
 */
export type FailureArea = "reader" | "admin";

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

/** A 401 whose message names Unauthorized: the session ended (docs/product/api.md). */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/**
 * The one answer to a failed call (docs/product/api.md): an ended session says so and goes to sign-in
 * after the audience's delay; anything else toasts the action's own failure ('Your echo
 * couldn't be saved right now.', 'Failed to create poem').
 */
export function reportFailure(error: unknown, audience: FailureArea, description: string) {
  if (isSessionEnded(error)) {
    const ended = SESSION_ENDED[audience];
    notifyError(ended.title, ended.description);
    setTimeout(() => window.location.assign("/api/login"), ended.redirectMs);
    return;
  }
  notifyError(FAILURE_TITLE[audience], description);
}
