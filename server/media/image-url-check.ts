import {
  fetchPublicFile,
  type PublicFetchOptions,
  type PublicFileKind,
} from "../http/public-fetch.ts";
import { detectAcceptedImageType, MAGIC_BYTES_SAMPLE_SIZE } from "./process-image.ts";

/** A cover: a JPEG, PNG or WebP of at most 20 MB (larger is not worth showing), within 5 s. */
const COVER: PublicFileKind = {
  accept: "image/*",
  maxBytes: 20 * 1024 * 1024,
  defaultTimeoutMs: 5000,
  detectType: detectAcceptedImageType,
  tooLarge: "The image is too large",
  wrongType: "Not a JPEG, PNG or WebP image",
  notLoaded: "The image could not be loaded",
};

/**
 * Checks that a cover URL the admin typed is an image: its first bytes are fetched under the
 * public-fetch rule (server/http/public-fetch.ts) and their type told.
 */
export async function checkImageUrl(
  rawUrl: string,
  options: PublicFetchOptions = {},
): Promise<{ contentType: string }> {
  const { contentType } = await fetchPublicFile(
    rawUrl,
    { ...COVER, firstBytesOnly: MAGIC_BYTES_SAMPLE_SIZE },
    options,
  );
  return { contentType };
}

/** Fetches a whole cover under the same rule (an imported poem's cover, copied into our storage). */
export function fetchImage(
  rawUrl: string,
  options: PublicFetchOptions = {},
): Promise<{ contentType: string; bytes: Uint8Array }> {
  return fetchPublicFile(rawUrl, COVER, options);
}
