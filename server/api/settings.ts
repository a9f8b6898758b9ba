import { endpoints } from "../../common/endpoints.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { Services } from "../services/index.ts";

/** The poet's site settings on the admin router (server/api/admin.ts): one object, read and written. */
export function settingsRoutes(services: Services) {
  const { siteSettings } = services;
  return routesAt<AdminEnv>("/api/admin")
    .call(endpoints.getSiteSettings, (_input, c) => siteSettings.get(c.var.admin))
    .call(endpoints.updateSiteSettings, ({ body }, c) => siteSettings.update(c.var.admin, body))
    .router;
}
