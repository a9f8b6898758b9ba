import { Hono } from "hono";
import { uploadUrlInput, validateImageUrlInput } from "../../common/schemas/images.ts";
import type { AdminEnv } from "../http/env.ts";
import { readJsonBody } from "../http/json-body.ts";
import type { ImageService } from "../services/images.ts";
import { uploadUrlHandler } from "./uploads.ts";

/** Image calls on the admin router (SPEC.md §7). */
export function imageRoutes(images: ImageService) {
  return new Hono<AdminEnv>()
    .post("/images/upload-url", uploadUrlHandler(images.uploads, uploadUrlInput))
    .post("/images/validate-url", async (c) => {
      const { url } = await readJsonBody(c, validateImageUrlInput);
      return c.json(await images.validateImageUrl(c.var.admin, url));
    });
}
