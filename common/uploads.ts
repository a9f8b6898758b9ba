import { AUDIO_UPLOAD_MAX_BYTES, UPLOAD_MAX_BYTES } from "./constants.ts";
import * as paths from "./paths.ts";

/**
 * What the admin uploads: cover images and the poet's readings (docs/product/admin.md, Uploads).
 * Each kind is a folder of the object store, of /objects/ and of the upload URLs, with its own size
 * limit.
 */
export const UPLOADS = {
  images: { maxBytes: UPLOAD_MAX_BYTES, wrongTypeMessage: "Please select an image file" },
  audio: { maxBytes: AUDIO_UPLOAD_MAX_BYTES, wrongTypeMessage: "Please select an audio file" },
} as const;
export type UploadKind = keyof typeof UPLOADS;

/** The stored path of an upload: the kind's stored-file route and the upload URL's last segment. */
export const uploadedObjectPath = (kind: UploadKind, id: string) =>
  kind === "images" ? paths.storedImage(id) : paths.storedAudio(id);

export const fileTooLargeMessage = (maxBytes: number) =>
  `File size must be less than ${(maxBytes / 1024 / 1024).toFixed(1)}MB`;
