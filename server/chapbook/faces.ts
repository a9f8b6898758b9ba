import { createRequire } from "node:module";
import type { ChapbookFace } from "../../common/schemas/chapbook-faces.ts";

/** The styles a chapbook is set in: verse and prose, italics, and titles. */
export type FaceStyle = "roman" | "italic" | "medium";

/**
 * A face's files (decision 074): its Latin subset as WOFF from @fontsource, which pdfkit embeds
 * as a subset of the glyphs used, and the EPUB carries whole.
 */
export function faceFiles(face: ChapbookFace): Record<FaceStyle, string> {
  const file = (name: string) =>
    createRequire(import.meta.url).resolve(`@fontsource/${face}/files/${face}-latin-${name}.woff`);
  return {
    roman: file("400-normal"),
    italic: file("400-italic"),
    medium: file("500-normal"),
  };
}
