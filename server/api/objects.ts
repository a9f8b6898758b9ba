import { Hono } from "hono";
import { COVER_VARIANT_WIDTHS } from "../../common/cover-image.ts";
import type { AppEnv } from "../http/env.ts";
import { detectImageType } from "../storage/image-type.ts";
import type { ObjectStore } from "../storage/local.ts";

/** {id} or {id}-{width}.webp, a variant beside it (docs/decisions/007-image-variants.md). */
const STORED_IMAGE_NAME = new RegExp(
  `^([A-Za-z0-9_-]+?)(?:-(${COVER_VARIANT_WIDTHS.join("|")})\\.webp)?$`,
);

/**
 * Stored images at /objects/images/{id} and their variants: their true type, nosniff, cached for
 * a year. `processPendingUpload` turns a direct-to-bucket upload into a stored image on first read.
 */
export function objectRoutes(
  store: ObjectStore,
  processPendingUpload: (id: string) => Promise<boolean> = async () => false,
) {
  return new Hono<AppEnv>().get("/images/:name{[A-Za-z0-9_.-]+}", async (c) => {
    const name = c.req.param("name");
    const id = STORED_IMAGE_NAME.exec(name)?.[1];
    if (!id) return c.json({ message: "Not found" }, 404);
    let bytes = await store.get(`images/${name}`);
    if (!bytes && (await processPendingUpload(id))) bytes = await store.get(`images/${name}`);
    const type = bytes && detectImageType(bytes);
    if (!bytes || !type) return c.json({ message: "Not found" }, 404);
    return c.body(new Uint8Array(bytes), 200, {
      "Content-Type": type,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
