import { Hono } from "hono";
import { COVER_VARIANT_WIDTHS, type CoverVariantWidth } from "../../common/cover-image.ts";
import type { AppEnv } from "../http/env.ts";
import { detectAcceptedImageType } from "../images/process-image.ts";
import type { ObjectStore } from "../storage/local.ts";

/** {id} or {id}-{width}.webp, a variant beside it (docs/decisions/007-image-variants.md). */
const STORED_IMAGE_NAME = new RegExp(
  `^([A-Za-z0-9_-]+?)(?:-(${COVER_VARIANT_WIDTHS.join("|")})\\.webp)?$`,
);

/**
 * Stored images at /objects/images/{id} and their variants: their true type, nosniff, cached for
 * a year. `createMissingImage` gets a chance to make what is not stored yet (a direct-to-bucket
 * upload, a variant of an older image) before the answer is 404.
 */
export function objectRoutes(
  store: ObjectStore,
  createMissingImage: (id: string, variantWidth?: CoverVariantWidth) => Promise<void>,
) {
  return new Hono<AppEnv>().get("/images/:name{[A-Za-z0-9_.-]+}", async (c) => {
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
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
