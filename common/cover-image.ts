import * as otherRoutes from "./other-routes.ts";
import { prefixOf } from "./path-builder.ts";
/**
 * Stored cover images and their resized variants. An uploaded cover lives at
 * /objects/images/{id}; beside it the server writes WebP copies named {id}-{width}.webp, one per
 * width below, never wider than the original (docs/decisions/007-image-variants.md).
 */
export const COVER_VARIANT_WIDTHS = [480, 960, 1440] as const;
export type CoverVariantWidth = (typeof COVER_VARIANT_WIDTHS)[number];

const STORED_COVER_PATH = /^\/objects\/images\/([A-Za-z0-9_-]+)$/;

/** The path of one resized WebP copy of a stored cover. */
export function coverVariantPath(coverPath: string, width: CoverVariantWidth): string {
  return `${coverPath}-${width}.webp`;
}

/**
 * A `srcset` for a cover: its WebP variants by width, for stored covers only (an external URL
 * has none, and gets undefined). Given the original's width, variants that would be as wide or
 * wider are left out and the original itself stands for the widest choice.
 */
export function buildCoverSrcSet(
  coverUrl: string | null | undefined,
  originalWidth?: number | null,
): string | undefined {
  if (!coverUrl || !STORED_COVER_PATH.test(coverUrl)) return undefined;
  if (!originalWidth) {
    return COVER_VARIANT_WIDTHS.map(
      (width) => `${coverVariantPath(coverUrl, width)} ${width}w`,
    ).join(", ");
  }
  const smaller = COVER_VARIANT_WIDTHS.filter((width) => width < originalWidth);
  return [
    ...smaller.map((width) => `${coverVariantPath(coverUrl, width)} ${width}w`),
    `${coverUrl} ${originalWidth}w`,
  ].join(", ");
}

/**
 * A cover under the stored images' path is in object storage, any other is a URL, and no cover has no
 * provider (docs/product/admin.md, Poems). The admin form sends it; the server derives it the same
 * way regardless.
 */
export function coverProviderOf(coverUrl: string | null): "object-storage" | "url" | null {
  if (!coverUrl) return null;
  return coverUrl.includes(prefixOf(otherRoutes.storedImage.path)) ? "object-storage" : "url";
}

export const COVER_HTTPS_MESSAGE = "Cover images must use https";

/**
 * Whether a reader's browser will show a cover: pages allow images from the site itself and over
 * https only (`img-src 'self' https:`, server/http/security-headers.ts), so a third-party `http:`
 * cover would pass a URL check and then show as a broken image (docs/decisions/017).
 */
export function isCoverAllowedOnPages(coverUrl: string, siteOrigin: string): boolean {
  if (coverUrl.startsWith("/")) return true;
  const url = new URL(coverUrl);
  return url.protocol === "https:" || url.origin === siteOrigin;
}
