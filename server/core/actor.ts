import type { Actor, AdminActor } from "../../common/session.ts";
import { isAdmin } from "../../common/session.ts";
import { forbidden, unauthorized } from "./errors.ts";

export type { Actor, AdminActor, SessionUser } from "../../common/session.ts";

/** The admin guard: anonymous 401, USER 403 ('Admin access required'). */
export function requireAdmin(actor: Actor): AdminActor {
  if (!actor) throw unauthorized();
  if (!isAdmin(actor)) throw forbidden("Admin access required");
  return actor as AdminActor;
}
