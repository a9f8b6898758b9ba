import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { ImageService } from "./images.ts";
import { uploadUrlHandler } from "./upload-routes.ts";

/** Image calls on the admin router (docs/product/api.md). */
export function imageRoutes(images: ImageService) {
  return routesAt<AdminEnv>(mounts.admin)
    .route(endpoints.createUploadUrl, uploadUrlHandler(images.uploads, endpoints.createUploadUrl))
    .call(endpoints.validateImageUrl, ({ body }, c) =>
      images.validateImageUrl(c.var.admin, body.url),
    ).router;
}
