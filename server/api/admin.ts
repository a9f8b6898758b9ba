import { Hono } from "hono";
import type { AdminEnv } from "../http/env.ts";
import { requireAdmin } from "../services/actor.ts";
import type { AudioService } from "../services/audio.ts";
import type { ImageService } from "../services/images.ts";
import type { Services } from "../services/index.ts";
import { adminContentRoutes } from "./admin-content.ts";
import { adminReaderRoutes } from "./admin-readers.ts";
import { audioRoutes } from "./audio.ts";
import { chapbookAdminRoutes } from "./chapbooks.ts";
import { digestRoutes } from "./digest.ts";
import { fediverseAdminRoutes } from "./fediverse-admin.ts";
import { fediverseDeliveryRoutes } from "./fediverse-deliveries.ts";
import { guestVoiceRoutes } from "./guest-voices.ts";
import { imageRoutes } from "./images.ts";
import { importRoutes } from "./import.ts";
import { adminInsightRoutes } from "./insights.ts";
import { settingsRoutes } from "./settings.ts";

/**
 * Every /api/admin call, on one router whose guard runs before any handler: anonymous 401, USER
 * 403. Handlers pass the guard's AdminActor (`c.var.admin`) to the admin services, which take
 * nothing else, so an admin call mounted anywhere but here does not compile.
 */
export function adminRoutes(services: Services, images: ImageService, audio: AudioService) {
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
    .route("/", imageRoutes(images))
    .route("/", audioRoutes(audio))
    .route("/", settingsRoutes(services))
    .route("/", importRoutes(services))
    .route("/", chapbookAdminRoutes(services))
    .route("/", adminInsightRoutes(services));
}
