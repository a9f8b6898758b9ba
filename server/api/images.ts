import { Hono } from "hono";
import { UPLOAD_MAX_BYTES } from "../../common/constants.ts";
import { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv, AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import { readLimitedBody } from "../http/read-limited-body.ts";
import type { ImageService } from "../services/images.ts";

/** Image calls on the admin router (SPEC.md §7). */
export function imageRoutes(images: ImageService) {
  return new Hono<AdminEnv>()
    .post("/images/upload-url", async (c) => {
      // SPEC.md §7 sends no body; a JSON body may name the file's type.
      const hasBody = (await c.req.text()).trim() !== "";
      const { contentType } = hasBody
        ? await readJsonBody(c, endpoints.createUploadUrl.body)
        : parseInput(endpoints.createUploadUrl.body, {});
      return answer(
        c,
        endpoints.createUploadUrl,
        await images.createUploadUrl(c.var.admin, contentType),
      );
    })
    .post("/images/validate-url", async (c) => {
      const { url } = await readJsonBody(c, endpoints.validateImageUrl.body);
      return answer(c, endpoints.validateImageUrl, await images.validateImageUrl(c.var.admin, url));
    });
}

/**
 * The browser's PUT of an upload to local disk. Mounted outside /api: its body may be up to
 * UPLOAD_MAX_BYTES, far past the API's JSON limit, and the signed URL, not a session, allows it.
 */
export function localUploadRoutes(images: ImageService) {
  return new Hono<AppEnv>().put("/:id", async (c) => {
    const stored = await images.receiveUpload(
      c.req.param("id"),
      { expires: c.req.query("expires"), signature: c.req.query("signature") },
      () => readLimitedBody(c.req.raw, UPLOAD_MAX_BYTES),
    );
    return c.json(stored);
  });
}
