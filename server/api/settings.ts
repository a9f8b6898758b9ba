import { Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv } from "../http/env.ts";
import { readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

/** The poet's site settings on the admin router (server/api/admin.ts): one object, read and written. */
export function settingsRoutes(services: Services) {
  const { siteSettings } = services;
  return new Hono<AdminEnv>()
    .get("/settings", async (c) =>
      answer(c, endpoints.getSiteSettings, await siteSettings.get(c.var.admin)),
    )
    .put("/settings", async (c) => {
      const input = await readJsonBody(c, endpoints.updateSiteSettings.body);
      return answer(c, endpoints.updateSiteSettings, await siteSettings.update(c.var.admin, input));
    });
}
