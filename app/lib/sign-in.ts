import * as paths from "../../common/paths.ts";
import { notify } from "./toast.ts";

/**
 * Sign-in that brings the reader back where they were, their stanza (#s-N) included: the
 * address says so, since a browser's Referer never carries the fragment. The sign-in page, the
 * emailed link and its Continue hand it on (server/accounts/sign-in.ts, safeReturnPath).
 */
export function signInAddress(): string {
  const { pathname, search, hash } = window.location;
  return paths.startLogin(pathname + search + hash);
}

/** A toast for an action that needs sign-in, with the way to sign in in it. */
export function notifySignInNeeded(title: string) {
  notify(title, undefined, { label: "Sign in", href: signInAddress() });
}
