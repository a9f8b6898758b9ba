import { z } from "zod/mini";
import { optional, requiredText, slug } from "./admin.ts";
import { dateTime } from "./answer.ts";
import { isUploadedImagePath } from "./settings.ts";

/**
 * The chapbook (docs/product/chapbook.md): the poet's choice of poems made into a print PDF and
 * an EPUB 3, and what the admin sees of its build.
 */

export const CHAPBOOK_TRIM_SIZES = ["a5", "5.5x8.5", "6x9"] as const;
export type ChapbookTrim = (typeof CHAPBOOK_TRIM_SIZES)[number];
/** The trim sizes as the admin's choice names them. */
export const CHAPBOOK_TRIM_LABELS: Record<ChapbookTrim, string> = {
  a5: "A5 (148 × 210 mm)",
  "5.5x8.5": "5.5 × 8.5 in",
  "6x9": "6 × 9 in",
};
export const CHAPBOOK_POEMS_MAX = 200;
const NOTE_MAX = 5_000;
export const CHAPBOOK_COVER_MESSAGE = "The cover must be an image uploaded here";

const flag = (name: string) => z.boolean(`${name} must be true or false`);
const note = (name: string) =>
  optional(
    z
      .string(`${name} must be text`)
      .check(
        z.trim(),
        z.maxLength(NOTE_MAX, `Please keep ${name.toLowerCase()} under ${NOTE_MAX} characters`),
      ),
  );

export const chapbookInput = z.object({
  title: requiredText("Title is required", 200),
  /** Left out, it is made from the title. */
  slug: z.optional(slug),
  subtitle: note("The subtitle"),
  dedication: note("The dedication"),
  epigraph: note("The epigraph"),
  acknowledgements: note("The acknowledgements"),
  aboutPoet: note("About the poet"),
  poemIds: z.array(z.number().check(z.int(), z.positive()), "Choose the chapbook's poems").check(
    z.minLength(1, "Choose at least one poem"),
    z.maxLength(CHAPBOOK_POEMS_MAX, `A chapbook holds at most ${CHAPBOOK_POEMS_MAX} poems`),
    z.refine((ids) => new Set(ids).size === ids.length, "Each poem can appear only once"),
  ),
  trim: z.enum(CHAPBOOK_TRIM_SIZES, "Choose A5, 5.5 × 8.5 in or 6 × 9 in"),
  bleed: z.optional(flag("bleed")),
  rectoStarts: z.optional(flag("rectoStarts")),
  downloadable: flag("downloadable"),
  withReadings: flag("withReadings"),
  /** The poet's uploaded cover; left out or empty, the typographic cover. */
  coverUrl: z.optional(
    z.nullable(
      z.string(CHAPBOOK_COVER_MESSAGE).check(
        z.trim(),
        z.refine((value) => value === "" || isUploadedImagePath(value), CHAPBOOK_COVER_MESSAGE),
      ),
    ),
  ),
});
export type ChapbookInput = z.output<typeof chapbookInput>;

export const chapbookBuild = z.object({
  /** queued: waiting for the builder; building: being made now; ready; failed (see error). */
  state: z.enum(["queued", "building", "ready", "failed"]),
  /** Poems laid out so far, of `poemCount`. */
  progress: z.int(),
  poemCount: z.int(),
  error: z.nullable(z.string()),
  builtAt: z.nullable(dateTime),
});
export type ChapbookBuild = z.output<typeof chapbookBuild>;

export const chapbook = z.object({
  id: z.int(),
  slug: z.string(),
  title: z.string(),
  subtitle: z.nullable(z.string()),
  dedication: z.nullable(z.string()),
  epigraph: z.nullable(z.string()),
  acknowledgements: z.nullable(z.string()),
  aboutPoet: z.nullable(z.string()),
  poemIds: z.array(z.int()),
  trim: z.enum(CHAPBOOK_TRIM_SIZES),
  bleed: z.boolean(),
  rectoStarts: z.boolean(),
  downloadable: z.boolean(),
  withReadings: z.boolean(),
  coverUrl: z.nullable(z.string()),
  build: chapbookBuild,
  /** Where the files are downloaded: /chapbooks/{slug}.pdf and .epub. */
  pdfUrl: z.string(),
  epubUrl: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type Chapbook = z.output<typeof chapbook>;
