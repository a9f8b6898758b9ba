import { COVER_VARIANT_WIDTHS, type CoverVariantWidth } from "../../common/cover-image.ts";
import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import { parseByteRange } from "../http/byte-range.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { ObjectStore } from "../storage/local.ts";
import type { AudioService } from "./audio.ts";
import { detectAcceptedImageType } from "./process-image.ts";

/** {id} or {id}-{width}.webp, a variant beside it (docs/decisions/007-image-variants.md). */
const STORED_IMAGE_NAME = new RegExp(
  `^([A-Za-z0-9_-]+?)(?:-(${COVER_VARIANT_WIDTHS.join("|")})\\.webp)?$`,
);

/** Stored objects never change under their name. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Stored objects, each with its true type, nosniff, cached for a year. Images at
 * /objects/images/{id} and their variants: `createMissingImage` gets a chance to make what is not
 * stored yet (a direct-to-bucket upload, a variant of an older image) before the answer is 404.
 * Audio at /objects/audio/{id}, a range at a time (docs/decisions/018-audio-ranges.md).
 */
export function objectRoutes(
  store: ObjectStore,
  createMissingImage: (id: string, variantWidth?: CoverVariantWidth) => Promise<void>,
  audio: AudioService,
) {
  return routesAt<AppEnv>(mounts.objects)
    .route(otherRoutes.storedImage, async (c) => {
      const name = c.req.param("name");
      const match = STORED_IMAGE_NAME.exec(name);
      const id = match?.[1];
      if (!id) return c.json({ message: "Not found" }, 404);
      const variantWidth = match[2] ? (Number(match[2]) as CoverVariantWidth) : undefined;
      let bytes = await store.get(`images/${name}`);
      if (!bytes) {
        await createMissingImage(id, variantWidth);
        bytes = await store.get(`images/${name}`);
      }
      const type = bytes && (await detectAcceptedImageType(bytes));
      if (!bytes || !type) return c.json({ message: "Not found" }, 404);
      return c.body(new Uint8Array(bytes), 200, {
        "Content-Type": type,
        "Cache-Control": IMMUTABLE,
        "X-Content-Type-Options": "nosniff",
      });
    })
    .route(otherRoutes.storedAudio, async (c) => {
      const recording = await audio.getAudio(c.req.param("id"));
      if (!recording) return c.json({ message: "Not found" }, 404);
      const { size } = recording;
      const range = parseByteRange(c.req.header("Range"), size);
      if (range === "unsatisfiable") {
        return c.body(null, 416, { "Content-Range": `bytes */${size}` });
      }
      const { start, end } = range ?? { start: 0, end: size - 1 };
      const headers: Record<string, string> = {
        "Content-Type": recording.contentType,
        "Content-Length": String(end - start + 1),
        "Accept-Ranges": "bytes",
        "Cache-Control": IMMUTABLE,
        "X-Content-Type-Options": "nosniff",
        ...(range ? { "Content-Range": `bytes ${start}-${end}/${size}` } : {}),
      };
      const status = range ? 206 : 200;
      // Hono answers HEAD with this GET route: no stream is opened for a body it would drop.
      if (c.req.method === "HEAD") return c.body(null, status, headers);
      return c.body(await recording.readRange({ start, end }), status, headers);
    }).router;
}
