import { z } from "zod/mini";

/**
 * Like the image upload URL request (common/schemas/images.ts): no body, or the file's type as
 * the browser names it, which an S3 upload URL is then bound to.
 */
export const audioUploadUrlInput = z.object({
  contentType: z.optional(
    z.enum([
      "audio/mpeg",
      "audio/mp4",
      "audio/x-m4a",
      "audio/aac",
      "audio/ogg",
      "audio/opus",
      "audio/wav",
      "audio/x-wav",
      "audio/wave",
    ]),
  ),
});
