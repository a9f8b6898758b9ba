import { randomUUID } from "node:crypto";
import {
  COVER_VARIANT_WIDTHS,
  type CoverVariantWidth,
  coverVariantPath,
} from "../../common/cover-image.ts";
import { INVALID_IMAGE_URL_MESSAGE } from "../../common/schemas/images.ts";
import { uploadedObjectPath } from "../../common/uploads.ts";
import type { Config } from "../config.ts";
import type { AdminActor, SessionUser } from "../core/actor.ts";
import { invalid, unsupportedMediaType } from "../core/errors.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import { type PublicFetchOptions, RemoteFileRefusedError } from "../http/public-fetch.ts";
import type { CoverFetcher } from "../import/files.ts";
import type { ObjectStore } from "../storage/local.ts";
import { checkImageUrl, fetchImage } from "./image-url-check.ts";
import {
  createVariant,
  type ProcessedImage,
  processImage,
  UnsupportedImageError,
} from "./process-image.ts";
import { createUploadFlow } from "./uploads.ts";

const imageKey = (id: string) => `images/${id}`;

export interface StoredImage {
  contentType: string;
  width: number;
  height: number;
}

/** Re-encodes and stores an image and its variants; undefined if the id is already taken. */
async function storeImageIn(
  objectStore: ObjectStore,
  id: string,
  bytes: Uint8Array,
): Promise<StoredImage | undefined> {
  let processed: ProcessedImage;
  try {
    processed = await processImage(bytes);
  } catch (error) {
    if (error instanceof UnsupportedImageError) throw unsupportedMediaType(error.message);
    throw error;
  }
  // The original is the claim on the id: variants are written only by the one upload that won it.
  if (!(await objectStore.putIfAbsent(imageKey(id), processed.original))) return undefined;
  await Promise.all(
    processed.variants.map((variant) =>
      objectStore.put(coverVariantPath(imageKey(id), variant.width), variant.bytes),
    ),
  );
  return { contentType: processed.type, width: processed.width, height: processed.height };
}

/**
 * An imported poem's cover copied into our storage (docs/product/import.md): fetched under the
 * same rule as a cover URL the admin types (public addresses only, pinned, redirects checked),
 * then re-encoded and stored like an upload, with its variants.
 */
export function createCoverFetcher(
  objectStore: ObjectStore,
  urlCheck?: PublicFetchOptions,
): CoverFetcher {
  return async (url) => {
    const { bytes } = await fetchImage(url, urlCheck);
    const id = randomUUID();
    const stored = await storeImageIn(objectStore, id, bytes);
    if (!stored) throw new Error("the cover's new id was taken");
    return {
      objectPath: uploadedObjectPath("images", id),
      width: stored.width,
      height: stored.height,
    };
  };
}

/**
 * Cover images (docs/product/admin.md, Uploads): their uploads (checked, re-encoded, resized)
 * and the check of an external cover URL.
 */
export function createImageService(deps: {
  config: Config;
  objectStore: ObjectStore;
  secret: string;
  urlCheck?: PublicFetchOptions;
  rateLimiter: RateLimiter;
}) {
  const { objectStore } = deps;

  const storeImage = (id: string, bytes: Uint8Array) => storeImageIn(objectStore, id, bytes);

  const uploads = createUploadFlow<StoredImage, SessionUser>(deps, {
    kind: "images",
    store: storeImage,
  });

  return {
    uploads,

    /**
     * Called when /objects/images/{id} or one of its variants is not stored: makes it if it can.
     * A direct-to-bucket upload is processed the first time it is asked for; a variant missing
     * beside an existing original (demo covers, images stored before variants) is made once.
     */
    async createMissingImage(id: string, variantWidth?: CoverVariantWidth): Promise<void> {
      if (!(await objectStore.exists(imageKey(id)))) await uploads.storePendingUpload(id);
      if (!variantWidth) return;
      const variantKey = coverVariantPath(imageKey(id), variantWidth);
      const original = await objectStore.get(imageKey(id));
      if (!original || (await objectStore.exists(variantKey))) return;
      await objectStore.put(variantKey, await createVariant(original, variantWidth));
    },

    /** A reader's avatar goes up through the same flow as covers, a few times an hour at most. */
    async createAvatarUploadUrl(reader: SessionUser, contentType?: string) {
      await deps.rateLimiter.consume(RATE_LIMITS.avatarUploadPerUser, reader.id);
      return uploads.createUploadUrl(reader, contentType);
    },

    /** Removes the image at an /objects/images/{id} path: its original, variants and any upload waiting. */
    async removeImage(objectPath: string): Promise<void> {
      const id = objectPath.slice(objectPath.lastIndexOf("/") + 1);
      await Promise.all([
        objectStore.delete(imageKey(id)),
        ...COVER_VARIANT_WIDTHS.map((width) =>
          objectStore.delete(coverVariantPath(imageKey(id), width)),
        ),
        objectStore.delete(`uploads/images/${id}`),
      ]);
    },

    /** Whether an /objects/images/{id} path names a stored image (a bucket upload is stored now). */
    async isStoredImage(objectPath: string): Promise<boolean> {
      const id = objectPath.slice(objectPath.lastIndexOf("/") + 1);
      if (!(await objectStore.exists(imageKey(id)))) await uploads.storePendingUpload(id);
      return objectStore.exists(imageKey(id));
    },

    /** Checks that an external cover URL is a reachable image on the public internet. */
    async validateImageUrl(
      admin: AdminActor,
      url: string,
    ): Promise<{ valid: true; contentType: string }> {
      await deps.rateLimiter.consume(RATE_LIMITS.imageUrlCheckPerUser, admin.id);
      try {
        const { contentType } = await checkImageUrl(url, deps.urlCheck);
        return { valid: true, contentType };
      } catch (error) {
        if (error instanceof RemoteFileRefusedError) {
          throw invalid(INVALID_IMAGE_URL_MESSAGE, { url: [error.message] });
        }
        throw error;
      }
    },
  };
}

export type ImageService = ReturnType<typeof createImageService>;
