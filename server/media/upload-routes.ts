import type { Context } from "hono";
import type { endpoints } from "../../common/endpoints.ts";
import type * as otherRoutes from "../../common/other-routes.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv, AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import { readLimitedBody } from "../http/read-limited-body.ts";
import { routesAt } from "../http/routes.ts";
import type { UploadFlow } from "./uploads.ts";

/**
 * POST …/upload-url of an upload kind: `{uploadURL, objectPath}` for the admin's browser. It reads
 * its own body, since a call may send none (docs/product/api.md) or a JSON one naming the file's
 * type, so it is registered with `.route` and answers through `answer`.
 */
export function uploadUrlHandler(
  flow: UploadFlow,
  endpoint: typeof endpoints.createUploadUrl | typeof endpoints.createAudioUploadUrl,
) {
  return async (c: Context<AdminEnv>) => {
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
export function localUploadRoutes(
  flow: UploadFlow,
  declared: typeof otherRoutes.uploadImage | typeof otherRoutes.uploadAudio,
) {
  return routesAt<AppEnv>("/").route(declared, async (c) => {
    const stored = await flow.receiveUpload(
      c.req.param("id"),
      { expires: c.req.query("expires"), signature: c.req.query("signature") },
      () => readLimitedBody(c.req.raw, flow.maxBytes),
    );
    return c.json(stored);
  }).router;
}
