import { Hono } from "hono";
import { audioUploadUrlInput } from "../../common/schemas/audio.ts";
import type { AppEnv } from "../http/env.ts";
import type { AudioService } from "../services/audio.ts";
import { uploadUrlHandler } from "./uploads.ts";

/** Admin audio calls under /api: the upload URL for a poem's reading (issue 21). */
export function audioRoutes(audio: AudioService) {
  return new Hono<AppEnv>().post(
    "/admin/audio/upload-url",
    uploadUrlHandler(audio.uploads, audioUploadUrlInput),
  );
}
