import type { z } from "zod/mini";
import type { sessionUser } from "./schemas/account.ts";

/**
 * Who is asking, as both sides see it: the server resolves it from the session once per request
 * and hands it to API handlers and page loaders (common/load-context.ts).
 */
export type SessionUser = z.output<typeof sessionUser>;

/** null is an anonymous visitor. */
export type Actor = SessionUser | null;

declare const checkedByRequireAdmin: unique symbol;

/**
 * An admin, as only the admin guard (`requireAdmin`, server/core/actor.ts) makes one. Admin
 * services take this type, so a door that skipped the check (an API handler outside the admin
 * router, a loader outside the admin layout) does not compile.
 */
export type AdminActor = SessionUser & { readonly [checkedByRequireAdmin]: true };

/**
 * Which of three audiences a request is for. A page may differ between these three and nothing
 * finer: the header's Login/Logout, 'Journal (local)', the Admin link, and an admin's preview of
 * what is not yet out. The page cache keeps one copy per audience (decision 024).
 */
export type Audience = "anonymous" | "reader" | "admin";

export const isAdmin = (actor: Actor): actor is SessionUser => actor?.role === "ADMIN";

export function audienceOf(actor: Actor): Audience {
  if (!actor) return "anonymous";
  return isAdmin(actor) ? "admin" : "reader";
}
