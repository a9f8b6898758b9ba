import { Hono } from "hono";
import { adminReaderRoutes } from "./accounts/admin-routes.ts";
import { chapbookAdminRoutes } from "./chapbook/routes.ts";
import { adminContentRoutes } from "./content/admin-routes.ts";
import { requireAdmin } from "./core/actor.ts";
import { digestRoutes } from "./digest/admin-routes.ts";
import { fediverseAdminRoutes } from "./fediverse/admin-routes.ts";
import { fediverseDeliveryRoutes } from "./fediverse/delivery-routes.ts";
import { guestVoiceRoutes } from "./guests/admin-routes.ts";
import type { AdminEnv } from "./http/env.ts";
import { importRoutes } from "./import/routes.ts";
import { adminInsightRoutes } from "./insights/routes.ts";
import { audioRoutes } from "./media/audio-routes.ts";
import { imageRoutes } from "./media/image-routes.ts";
import type { Services } from "./services.ts";
import { settingsRoutes } from "./settings/routes.ts";

/**
 * Every /api/admin call, on one router whose guard runs before any handler: anonymous 401, USER
 * 403. Handlers pass the guard's AdminActor (`c.var.admin`) to the admin services, which take
 * nothing else, so an admin call mounted anywhere but here does not compile.
 */
export function adminRoutes(services: Services) {
  return new Hono<AdminEnv>()
    .use(async (c, next) => {
      c.set("admin", requireAdmin(c.get("actor")));
      await next();
    })
    .route("/", adminContentRoutes(services))
    .route("/", adminReaderRoutes(services))
    .route("/", digestRoutes(services))
    .route("/", fediverseDeliveryRoutes(services))
    .route("/", fediverseAdminRoutes(services))
    .route("/", guestVoiceRoutes(services))
    .route("/", imageRoutes(services.images))
    .route("/", audioRoutes(services.audio))
    .route("/", settingsRoutes(services))
    .route("/", importRoutes(services))
    .route("/", chapbookAdminRoutes(services))
    .route("/", adminInsightRoutes(services));
}
