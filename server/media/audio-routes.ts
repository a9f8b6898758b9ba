import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { AudioService } from "./audio.ts";
import { uploadUrlHandler } from "./upload-routes.ts";

/** Audio calls on the admin router: the upload URL for a poem's reading. */
export function audioRoutes(audio: AudioService) {
  return routesAt<AdminEnv>(mounts.admin).route(
    endpoints.createAudioUploadUrl,
    uploadUrlHandler(audio.uploads, endpoints.createAudioUploadUrl),
  ).router;
}
