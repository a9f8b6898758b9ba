import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { COVER_VARIANT_WIDTHS, type CoverVariantWidth } from "../../common/cover-image.ts";

export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/**
 * Enough leading bytes for file-type to recognise any format it knows, so a URL check can stop
 * reading there.
 */
export const MAGIC_BYTES_SAMPLE_SIZE = 4100;

/**
 * Decoding stops above this many pixels: a 5 MB file can declare a 60000x60000 canvas and would
 * otherwise ask for gigabytes of memory. 50 megapixels still takes a 48 MP phone photo.
 */
const MAX_INPUT_PIXELS = 50_000_000;

export class UnsupportedImageError extends Error {
  override name = "UnsupportedImageError";
}

/** The file's type by its magic bytes, if it is one of the accepted image types. */
export async function detectAcceptedImageType(
  bytes: Uint8Array,
): Promise<AcceptedImageType | undefined> {
  const detected = await fileTypeFromBuffer(bytes.subarray(0, MAGIC_BYTES_SAMPLE_SIZE));
  return ACCEPTED_IMAGE_TYPES.find((type) => type === detected?.mime);
}

export interface ProcessedImage {
  type: AcceptedImageType;
  /** The upload re-encoded in its own format: upright, no EXIF, GPS, XMP or comments. */
  original: Uint8Array;
  width: number;
  height: number;
  variants: { width: CoverVariantWidth; bytes: Uint8Array }[];
}

const decode = (bytes: Uint8Array) =>
  sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });

/** A WebP copy at most `width` wide: never upscaled, no metadata. */
export async function createVariant(image: Uint8Array, width: CoverVariantWidth) {
  const resized = decode(image).rotate().resize({ width, withoutEnlargement: true });
  return new Uint8Array(await resized.webp({ quality: 78 }).toBuffer());
}

/**
 * Re-encodes an uploaded JPEG, PNG or WebP and makes its WebP variants. Re-encoding, not copying,
 * is what removes metadata and anything smuggled after the image data. Throws
 * UnsupportedImageError for other types and for files that do not decode.
 */
export async function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  const type = await detectAcceptedImageType(bytes);
  if (!type) throw new UnsupportedImageError("Only JPEG, PNG and WebP images are accepted");
  let encoded: { data: Buffer; info: sharp.OutputInfo };
  try {
    // rotate() with no angle applies the EXIF orientation, so the pixels are upright once the
    // orientation tag is gone; sharp writes no metadata unless asked.
    const upright = decode(bytes).rotate();
    const reencoded =
      type === "image/jpeg"
        ? upright.jpeg({ quality: 85, mozjpeg: true })
        : type === "image/png"
          ? upright.png()
          : upright.webp({ quality: 85 });
    encoded = await reencoded.toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new UnsupportedImageError("The image could not be decoded", { cause: error });
  }
  const { width, height } = encoded.info;
  // One at a time: each decodes the whole image, and a 50-megapixel one takes ~200 MB to hold.
  const variants: ProcessedImage["variants"] = [];
  for (const variantWidth of COVER_VARIANT_WIDTHS) {
    variants.push({ width: variantWidth, bytes: await createVariant(encoded.data, variantWidth) });
  }
  return { type, original: new Uint8Array(encoded.data), width, height, variants };
}
