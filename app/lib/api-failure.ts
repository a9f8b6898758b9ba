import {
  ADMIN_LOGGED_OUT_REDIRECT_MS,
  EXPIRED_SESSION_REDIRECT_MS,
} from "../../common/constants.ts";
import { ApiError } from "./api.ts";
import { notifyError } from "./toast.ts";

/** Who is told: a reader on the site, or the poet in the admin area (docs/product/accounts.md). */
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

/**
 * A call answered 401: the session ended (it expired, the person signed out elsewhere, a role
 * changed; docs/product/accounts.md, Ended sessions). The API answers 401 for that alone, so the
 * status says it; the message is for people.
 */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * The one answer to a failed call (docs/product/accounts.md): an ended session says so and goes to
 * sign-in after the audience's delay; anything else toasts the action's own failure ('Your echo
 * couldn't be saved right now.', 'Failed to create poem'), under the audience's title ('Something
 * went awry', 'Error') unless the action names its own ('Send failed').
 */
export function reportFailure(
  error: unknown,
  audience: Audience,
  description: string,
  title: string = FAILURE_TITLE[audience],
) {
  if (isSessionEnded(error)) {
    const ended = SESSION_ENDED[audience];
    notifyError(ended.title, ended.description);
    setTimeout(() => window.location.assign("/api/login"), ended.redirectMs);
    return;
  }
  // A reader refused for who they are (blocked by the poet) is told so, not that it failed.
  if (audience === "reader" && error instanceof ApiError && error.status === 403) {
    notifyError(title, error.serverMessage ?? description);
    return;
  }
  notifyError(title, description);
}
