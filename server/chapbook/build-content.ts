import { and, asc, eq, isNull } from "drizzle-orm";
import sharp from "sharp";
import { isUploadedImagePath } from "../../common/schemas/settings.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { poemReadingColumns } from "../content/poem-revisions.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { chapbookPoems, chapbooks, poems } from "../db/schema.ts";
import { detectAudioType } from "../media/detect-audio-type.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import type { ChapbookContent, ChapbookCover, ChapbookReading } from "./content.ts";

/*
 * What a build reads, once, to make a chapbook's files (content.ts): the chapbook, its poems with
 * their readings, the poet's cover and name.
 */

/**
 * Reads a stored object by its key: an uploaded reading, for the EPUB's Media Overlays, and the
 * uploaded cover.
 */
export type ReadStoredObject = (key: string) => Promise<Uint8Array | undefined>;

/** What a build gathers its content from. */
export type GatherDeps = Pick<ServiceDeps, "db" | "config" | "logger"> & {
  siteSettings: SiteSettingsService;
  readStoredObject?: ReadStoredObject;
};

/** The EPUB core audio types a Media Overlay may play, by what our uploads are served as. */
const OVERLAY_AUDIO: Record<string, Pick<ChapbookReading, "mediaType" | "extension">> = {
  "audio/mpeg": { mediaType: "audio/mpeg", extension: "mp3" },
  "audio/mp4": { mediaType: "audio/mp4", extension: "m4a" },
};

async function readingOf(
  readStoredObject: ReadStoredObject | undefined,
  poem: {
    audioUrl: string | null;
    stanzaTimings: number[] | null;
    readingDuration: number | null;
  },
): Promise<ChapbookReading | null> {
  const id = poem.audioUrl?.match(/^\/objects\/audio\/([A-Za-z0-9_-]+)$/)?.[1];
  if (!id || !poem.stanzaTimings || !poem.readingDuration || !readStoredObject) return null;
  const bytes = await readStoredObject(`audio/${id}`);
  const type = bytes && OVERLAY_AUDIO[(await detectAudioType(bytes)) ?? ""];
  if (!bytes || !type) return null;
  return {
    bytes,
    ...type,
    timings: poem.stanzaTimings,
    duration: poem.readingDuration,
  };
}

/**
 * The poet's uploaded cover as a JPEG, which both the PDF and an EPUB reader take, at most the
 * size e-book stores ask for; null when there is none or it cannot be read (the typographic
 * cover then).
 */
async function coverOf(
  { logger, readStoredObject }: Pick<GatherDeps, "logger" | "readStoredObject">,
  coverUrl: string | null,
): Promise<ChapbookCover | null> {
  if (!coverUrl || !isUploadedImagePath(coverUrl) || !readStoredObject) return null;
  const bytes = await readStoredObject(coverUrl.replace(/^\/objects\//, ""));
  if (!bytes) return null;
  try {
    const { data, info } = await sharp(bytes)
      .rotate()
      .resize({ width: 1600, height: 2560, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: new Uint8Array(data), width: info.width, height: info.height };
  } catch (error) {
    logger.warn({ err: error, coverUrl }, "a chapbook's cover could not be read");
    return null;
  }
}

/** Everything the files are made from, read once. */
export async function gather(deps: GatherDeps, id: number): Promise<ChapbookContent | undefined> {
  const { db, config } = deps;
  const [book] = await db.select().from(chapbooks).where(eq(chapbooks.id, id));
  if (!book) return undefined;
  const rows = await db
    .select({ ...poemReadingColumns, publishAt: poems.publishAt })
    .from(chapbookPoems)
    .innerJoin(poems, eq(poems.id, chapbookPoems.poemId))
    .where(and(eq(chapbookPoems.chapbookId, id), isNull(poems.deletedAt)))
    .orderBy(asc(chapbookPoems.position));
  const site = await deps.siteSettings.view();
  const newest = Math.max(0, ...rows.map((row) => row.publishAt.getTime()));
  return {
    title: book.title,
    subtitle: book.subtitle,
    dedication: book.dedication,
    epigraph: book.epigraph,
    acknowledgements: book.acknowledgements,
    aboutPoet: book.aboutPoet,
    author: site.poetName ?? site.siteTitle,
    siteUrl: config.publicUrl.origin,
    slug: book.slug,
    copyright: site.copyright,
    modified: book.updatedAt.toISOString(),
    published: new Date(newest || book.createdAt.getTime()).toISOString().slice(0, 10),
    trim: book.trim,
    bleed: book.bleed,
    rectoStarts: book.rectoStarts,
    face: site.chapbookFace,
    cover: await coverOf(deps, book.coverUrl),
    poems: await Promise.all(
      rows.map(async (row) => ({
        title: row.title,
        stanzas: row.stanzas.map((stanza) => stanzaLines(stanza)),
        reading: book.withReadings ? await readingOf(deps.readStoredObject, row) : null,
      })),
    ),
  };
}
