import type { Context } from "hono";
import { Hono } from "hono";
import type { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv, AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import { readLimitedBody } from "../http/read-limited-body.ts";
import type { UploadFlow } from "../services/uploads.ts";

/** POST …/upload-url of an upload kind: `{uploadURL, objectPath}` for the admin's browser. */
export function uploadUrlHandler(
  flow: UploadFlow,
  endpoint: typeof endpoints.createUploadUrl | typeof endpoints.createAudioUploadUrl,
) {
  return async (c: Context<AdminEnv>) => {
    // SPEC.md §7 sends no body; a JSON body may name the file's type.
    const hasBody = (await c.req.text()).trim() !== "";
    const { contentType } = hasBody
      ? await readJsonBody(c, endpoint.body)
      : parseInput(endpoint.body, {});
    return answer(c, endpoint, await flow.createUploadUrl(c.var.admin, contentType));
  };
}

/**
 * The browser's PUT of an upload to local disk. Mounted outside /api: its body may be up to the
 * kind's limit, far past the API's JSON limit, and the signed URL, not a session, allows it.
 */
export function localUploadRoutes(flow: UploadFlow) {
  return new Hono<AppEnv>().put("/:id", async (c) => {
    const stored = await flow.receiveUpload(
      c.req.param("id"),
      { expires: c.req.query("expires"), signature: c.req.query("signature") },
      () => readLimitedBody(c.req.raw, flow.maxBytes),
    );
    return c.json(stored);
  });
}
