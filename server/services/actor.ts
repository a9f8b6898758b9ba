import type { z } from "zod/mini";
import type { sessionUser } from "../../common/schemas/account.ts";
import { forbidden, unauthorized } from "./errors.ts";

/** The person acting on a request, resolved once per request from the session. */
export type SessionUser = z.output<typeof sessionUser>;

/** null is an anonymous visitor. */
export type Actor = SessionUser | null;

export const isAdmin = (actor: Actor): actor is SessionUser => actor?.role === "ADMIN";

declare const checkedByRequireAdmin: unique symbol;

/**
 * An admin, as only `requireAdmin` makes one. Admin services take this type, so a door that
 * skipped the check (an API handler outside the admin router, a loader outside the admin layout)
 * does not compile.
 */
export type AdminActor = SessionUser & { readonly [checkedByRequireAdmin]: true };

/** The admin guard: anonymous 401, USER 403 ('Admin access required'). */
export function requireAdmin(actor: Actor): AdminActor {
  if (!actor) throw unauthorized();
  if (!isAdmin(actor)) throw forbidden("Admin access required");
  return actor as AdminActor;
}
