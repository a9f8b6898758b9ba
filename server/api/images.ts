import { Hono } from "hono";
import { uploadUrlInput, validateImageUrlInput } from "../../common/schemas/images.ts";
import type { AppEnv } from "../http/env.ts";
import { readJsonBody } from "../http/json-body.ts";
import type { ImageService } from "../services/images.ts";
import { uploadUrlHandler } from "./uploads.ts";

/** Admin image calls under /api (SPEC.md §7). */
export function imageRoutes(images: ImageService) {
  return new Hono<AppEnv>()
    .post("/admin/images/upload-url", uploadUrlHandler(images.uploads, uploadUrlInput))
    .post("/admin/images/validate-url", async (c) => {
      const { url } = await readJsonBody(c, validateImageUrlInput);
      return c.json(await images.validateImageUrl(c.get("actor"), url));
    });
}
