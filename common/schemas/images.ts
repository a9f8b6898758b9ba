import { z } from "zod/mini";

/**
 * The message the admin's cover preview shows when the server refuses a URL
 * (docs/product/admin.md, Poems).
 */
export const INVALID_IMAGE_URL_MESSAGE = "Please enter a valid image URL";

export const validateImageUrlInput = z.object({
  url: z
    .string(INVALID_IMAGE_URL_MESSAGE)
    .check(z.trim(), z.minLength(1, INVALID_IMAGE_URL_MESSAGE), z.maxLength(2048)),
});

/**
 * The upload URL request carries no body in the original API (docs/product/api.md); a client that
 * names its file's type gets an S3 URL that accepts only that type.
 */
export const uploadUrlInput = z.object({
  contentType: z.optional(z.enum(["image/jpeg", "image/png", "image/webp"])),
});

/** POST /api/admin/images/upload-url: where to PUT the file, and the path it will have. */
export const uploadUrlAnswer = z.object({ uploadURL: z.string(), objectPath: z.string() });

/** POST /api/admin/images/validate-url: a refused URL is a 400 instead. */
export const validImageUrl = z.object({ valid: z.literal(true), contentType: z.string() });
