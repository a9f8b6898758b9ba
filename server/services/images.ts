import { randomUUID } from "node:crypto";
import { UPLOAD_MAX_BYTES } from "../../common/constants.ts";
import { type CoverVariantWidth, coverVariantPath } from "../../common/cover-image.ts";
import { INVALID_IMAGE_URL_MESSAGE } from "../../common/schemas/images.ts";
import type { Config } from "../config.ts";
import {
  checkImageUrl,
  type ImageUrlCheckOptions,
  ImageUrlRefusedError,
} from "../images/image-url-check.ts";
import {
  createVariant,
  type ProcessedImage,
  processImage,
  UnsupportedImageError,
} from "../images/process-image.ts";
import { checkLocalUploadSignature, signLocalUploadUrl, UPLOAD_ID } from "../images/upload-url.ts";
import type { ObjectStore } from "../storage/local.ts";
import type { AdminActor } from "./actor.ts";
import { forbidden, invalid, isServiceError, notFound, unsupportedMediaType } from "./errors.ts";
import { RATE_LIMITS, type RateLimiter } from "./rate-limit.ts";

/** Long enough to pick a file on a slow connection; short enough that a leaked URL soon dies. */
const LOCAL_UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** A presigned bucket URL cannot be made single-use, so it lives only as long as one upload. */
const BUCKET_UPLOAD_URL_TTL_SECONDS = 5 * 60;

const imageKey = (id: string) => `images/${id}`;
/** Where a browser's direct-to-bucket upload waits, unprocessed, until it is first read. */
const pendingUploadKey = (id: string) => `uploads/${id}`;
const objectPath = (id: string) => `/objects/images/${id}`;

export interface StoredImage {
  objectPath: string;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Cover images (SPEC.md §7): upload URLs for admins, the upload itself (checked, re-encoded,
 * resized), and the check of an external cover URL.
 */
export function createImageService(deps: {
  config: Config;
  objectStore: ObjectStore;
  secret: string;
  urlCheck?: ImageUrlCheckOptions;
  rateLimiter: RateLimiter;
}) {
  const { config, objectStore, secret } = deps;

  /** Re-encodes and stores an image and its variants; undefined if the id is already taken. */
  async function storeImage(id: string, bytes: Uint8Array): Promise<StoredImage | undefined> {
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
    return {
      objectPath: objectPath(id),
      contentType: processed.type,
      width: processed.width,
      height: processed.height,
    };
  }

  /**
   * Processes a direct-to-bucket upload into a stored image, then deletes the upload. One that is
   * too large or not an accepted image is deleted without being stored.
   */
  async function processPendingUpload(id: string): Promise<void> {
    if (!objectStore.presignUpload || !UPLOAD_ID.test(id)) return;
    const bytes = await objectStore.get(pendingUploadKey(id));
    if (!bytes) return;
    try {
      if (bytes.byteLength <= UPLOAD_MAX_BYTES) await storeImage(id, bytes);
    } catch (error) {
      if (!isServiceError(error) || error.status !== 415) throw error;
    } finally {
      await objectStore.delete(pendingUploadKey(id));
    }
  }

  return {
    /** A URL the admin's browser PUTs one image to, and the path to store as the cover. */
    async createUploadUrl(
      _admin: AdminActor,
      contentType?: string,
    ): Promise<{ uploadURL: string; objectPath: string }> {
      const id = randomUUID();
      const uploadURL = objectStore.presignUpload
        ? await objectStore.presignUpload(pendingUploadKey(id), {
            contentType,
            expiresInSeconds: BUCKET_UPLOAD_URL_TTL_SECONDS,
          })
        : signLocalUploadUrl(
            config.publicUrl,
            secret,
            id,
            Math.floor(Date.now() / 1000) + LOCAL_UPLOAD_URL_TTL_SECONDS,
          );
      return { uploadURL, objectPath: objectPath(id) };
    },

    /**
     * Receives a PUT to a local upload URL. The signed URL is the authority (no session): it
     * names the id, must not have expired, and works once.
     */
    async receiveUpload(
      id: string,
      link: { expires?: string; signature?: string },
      readBody: () => Promise<Uint8Array>,
    ): Promise<StoredImage> {
      if (!UPLOAD_ID.test(id) || objectStore.presignUpload) throw notFound();
      const nowSeconds = Math.floor(Date.now() / 1000);
      const check = checkLocalUploadSignature(secret, id, link.expires, link.signature, nowSeconds);
      if (check === "invalid") throw forbidden("Invalid upload signature");
      if (check === "expired") throw forbidden("Upload URL has expired");
      if (await objectStore.exists(imageKey(id))) {
        throw forbidden("Upload URL has already been used");
      }
      const stored = await storeImage(id, await readBody());
      if (!stored) throw forbidden("Upload URL has already been used");
      return stored;
    },

    /**
     * Called when /objects/images/{id} or one of its variants is not stored: makes it if it can.
     * A direct-to-bucket upload is processed the first time it is asked for; a variant missing
     * beside an existing original (demo covers, images stored before variants) is made once.
     */
    async createMissingImage(id: string, variantWidth?: CoverVariantWidth): Promise<void> {
      if (!(await objectStore.exists(imageKey(id)))) await processPendingUpload(id);
      if (!variantWidth) return;
      const variantKey = coverVariantPath(imageKey(id), variantWidth);
      const original = await objectStore.get(imageKey(id));
      if (!original || (await objectStore.exists(variantKey))) return;
      await objectStore.put(variantKey, await createVariant(original, variantWidth));
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
        if (error instanceof ImageUrlRefusedError) {
          throw invalid(INVALID_IMAGE_URL_MESSAGE, { url: [error.message] });
        }
        throw error;
      }
    },
  };
}

export type ImageService = ReturnType<typeof createImageService>;
