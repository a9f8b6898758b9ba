/**
 * How much an import may hold (decision 051, docs/product/import.md). An upload or a file in a
 * folder over IMPORT_MAX_BYTES is refused before it is read; a zip is refused when its entries,
 * their total unpacked size or one entry's packing ratio pass the limits below.
 */

/** One export file (a zip, a Ghost JSON, a WXR, a CSV), the limit the import page also shows. */
export { IMPORT_MAX_BYTES } from "../../common/schemas/import.ts";
/** All entries of a zip (or files of a folder) unpacked together. */
export const IMPORT_MAX_UNPACKED_BYTES = 209_715_200;
/** Entries in a zip or files in a folder: a Substack export holds a few files per post. */
export const IMPORT_MAX_ENTRIES = 20_000;
/**
 * Packing ratio past which an entry is a zip bomb, not text: text packs 3–10 times; a bomb packs
 * a thousand. Entries under IMPORT_RATIO_FREE_BYTES unpacked are not held to it.
 */
export const IMPORT_MAX_RATIO = 100;
export const IMPORT_RATIO_FREE_BYTES = 1_048_576;

/**
 * How deep a post's HTML is read (decision 051): real posts nest a few dozen elements; past this a
 * post is skipped, since the HTML parser's cost grows with the square of the depth.
 */
export const HTML_MAX_DEPTH = 500;

/** The poem limits of the admin form (common/schemas/admin.ts). */
export const POEM_TITLE_MAX_LENGTH = 300;
export const POEM_MAX_STANZAS = 500;
export const STANZA_MAX_LENGTH = 10_000;
export const SLUG_MAX_LENGTH = 200;
export const COVER_ALT_MAX_LENGTH = 300;
export const COVER_URL_MAX_LENGTH = 2_000;
