import type { MiddlewareHandler } from "hono";
import { forbidden, unauthorized } from "../services/errors.ts";
import type { AppEnv } from "./env.ts";

/**
 * The first of two locks on /api/admin/*: anonymous 401, USER 403. Admin services check the role
 * again themselves, so no door can forget it (STYLE.md).
 */
export const requireAdminApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get("actor");
  if (!actor) throw unauthorized();
  if (actor.role !== "ADMIN") throw forbidden("Admin access required");
  return next();
};
