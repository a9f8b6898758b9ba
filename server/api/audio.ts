import { Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import type { AdminEnv } from "../http/env.ts";
import type { AudioService } from "../services/audio.ts";
import { uploadUrlHandler } from "./uploads.ts";

/** Audio calls on the admin router: the upload URL for a poem's reading (issue 21). */
export function audioRoutes(audio: AudioService) {
  return new Hono<AdminEnv>().post(
    "/audio/upload-url",
    uploadUrlHandler(audio.uploads, endpoints.createAudioUploadUrl),
  );
}
