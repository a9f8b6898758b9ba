import { Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv } from "../http/env.ts";
import { readJsonBody } from "../http/json-body.ts";
import type { ImageService } from "../services/images.ts";
import { uploadUrlHandler } from "./uploads.ts";

/** Image calls on the admin router (SPEC.md §7). */
export function imageRoutes(images: ImageService) {
  return new Hono<AdminEnv>()
    .post("/images/upload-url", uploadUrlHandler(images.uploads, endpoints.createUploadUrl))
    .post("/images/validate-url", async (c) => {
      const { url } = await readJsonBody(c, endpoints.validateImageUrl.body);
      return answer(c, endpoints.validateImageUrl, await images.validateImageUrl(c.var.admin, url));
    });
}
