import { createHash } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import sharp from "sharp";
import { isUploadedImagePath } from "../../common/schemas/settings.ts";
import { stanzaLines } from "../../common/stanza.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { chapbookPoems, chapbooks, poems, siteSettings } from "../db/schema.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import { detectAudioType } from "../media/detect-audio-type.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import type { ChapbookService } from "./chapbooks.ts";
import type { ChapbookContent, ChapbookCover, ChapbookReading } from "./content.ts";
import { type ChapbookFiles, renderChapbook } from "./render.ts";

/**
 * Reads a stored object by its key: an uploaded reading, for the EPUB's Media Overlays, and the
 * uploaded cover.
 */
export type ReadStoredObject = (key: string) => Promise<Uint8Array | undefined>;

export interface ChapbookBuilderOptions {
  /** How long a build may hold its claim before another instance takes it over. */
  leaseMs: number;
  pollMs: number;
  /** Makes the files; the worker thread's by default, a test's own to hold a build open. */
  render: typeof renderChapbook;
}

const DEFAULTS: ChapbookBuilderOptions = {
  leaseMs: 5 * 60_000,
  pollMs: 30_000,
  render: renderChapbook,
};
/** Progress is written at most this often: it is for the poet's eyes, not a log. */
const PROGRESS_EVERY_MS = 500;

/** The EPUB core audio types a Media Overlay may play, by what our uploads are served as. */
const OVERLAY_AUDIO: Record<string, Pick<ChapbookReading, "mediaType" | "extension">> = {
  "audio/mpeg": { mediaType: "audio/mpeg", extension: "mp3" },
  "audio/mp4": { mediaType: "audio/mp4", extension: "m4a" },
};

/**
 * Makes chapbooks' files in the background (docs/decisions/066-chapbook-files.md): a claimed
 * build at a time, on every instance (`FOR UPDATE SKIP LOCKED` with a lease, as the import
 * does), laid out in a worker thread. After any content change, a chapbook whose poems changed
 * since its files were made (its fingerprint differs) is queued again; nothing else is.
 */
export function createChapbookBuilder(
  deps: ServiceDeps & {
    chapbooks: ChapbookService;
    contentChanges: ContentChanges;
    siteSettings: SiteSettingsService;
    readStoredObject?: ReadStoredObject;
    options?: Partial<ChapbookBuilderOptions>;
  },
) {
  const { db, config, logger, now } = deps;
  const options = { ...DEFAULTS, ...deps.options };
  let isRecheckDue = true;

  /** What the files are made from: the chapbook, its poems' last saves, the poet's name. */
  async function fingerprintOf(id: number): Promise<string> {
    const [row] = await db
      .select({ updatedAt: chapbooks.updatedAt })
      .from(chapbooks)
      .where(eq(chapbooks.id, id));
    const poemRows = await db
      .select({ id: poems.id, updatedAt: poems.updatedAt, deletedAt: poems.deletedAt })
      .from(chapbookPoems)
      .innerJoin(poems, eq(poems.id, chapbookPoems.poemId))
      .where(eq(chapbookPoems.chapbookId, id))
      .orderBy(asc(chapbookPoems.position));
    const [settings] = await db.select({ updatedAt: siteSettings.updatedAt }).from(siteSettings);
    return createHash("sha256")
      .update(JSON.stringify({ chapbook: row?.updatedAt, poems: poemRows, settings }))
      .digest("hex");
  }

  /** Queues again the built (or failed) chapbooks whose poems changed since. */
  async function queueChanged(): Promise<void> {
    const built = await db
      .select({ id: chapbooks.id, builtFrom: chapbooks.builtFrom })
      .from(chapbooks)
      .where(inArray(chapbooks.buildState, ["ready", "failed"]));
    for (const { id, builtFrom } of built) {
      if ((await fingerprintOf(id)) === builtFrom) continue;
      await db
        .update(chapbooks)
        .set({ buildState: "queued", buildProgress: 0, buildError: null })
        .where(and(eq(chapbooks.id, id), inArray(chapbooks.buildState, ["ready", "failed"])));
    }
  }

  /** Claims the oldest queued chapbook, or one whose builder's lease ran out. */
  async function claim(): Promise<{ id: number; leaseUntil: Date } | undefined> {
    const leaseUntil = new Date(now().getTime() + options.leaseMs);
    return db.transaction(async (tx) => {
      const [next] = await tx
        .select({ id: chapbooks.id })
        .from(chapbooks)
        .where(
          or(
            eq(chapbooks.buildState, "queued"),
            and(eq(chapbooks.buildState, "building"), lt(chapbooks.leaseUntil, now())),
          ),
        )
        .orderBy(asc(chapbooks.updatedAt), asc(chapbooks.id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!next) return undefined;
      await tx
        .update(chapbooks)
        .set({ buildState: "building", buildProgress: 0, leaseUntil })
        .where(eq(chapbooks.id, next.id));
      return { id: next.id, leaseUntil };
    });
  }

  async function readingOf(poem: {
    audioUrl: string | null;
    stanzaTimings: number[] | null;
    readingDuration: number | null;
  }): Promise<ChapbookReading | null> {
    const id = poem.audioUrl?.match(/^\/objects\/audio\/([A-Za-z0-9_-]+)$/)?.[1];
    if (!id || !poem.stanzaTimings || !poem.readingDuration || !deps.readStoredObject) return null;
    const bytes = await deps.readStoredObject(`audio/${id}`);
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
  async function coverOf(coverUrl: string | null): Promise<ChapbookCover | null> {
    if (!coverUrl || !isUploadedImagePath(coverUrl) || !deps.readStoredObject) return null;
    const bytes = await deps.readStoredObject(coverUrl.replace(/^\/objects\//, ""));
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
  async function gather(id: number): Promise<ChapbookContent | undefined> {
    const [book] = await db.select().from(chapbooks).where(eq(chapbooks.id, id));
    if (!book) return undefined;
    const rows = await db
      .select({
        title: poems.title,
        stanzas: poems.stanzas,
        audioUrl: poems.audioUrl,
        stanzaTimings: poems.stanzaTimings,
        readingDuration: poems.readingDuration,
        publishAt: poems.publishAt,
      })
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
      cover: await coverOf(book.coverUrl),
      poems: await Promise.all(
        rows.map(async (row) => ({
          title: row.title,
          stanzas: row.stanzas.map((stanza) => stanzaLines(stanza)),
          reading: book.withReadings ? await readingOf(row) : null,
        })),
      ),
    };
  }

  /** Writes only while this build still holds its claim: an edit meanwhile queued it again. */
  const ours = (id: number, leaseUntil: Date) =>
    and(
      eq(chapbooks.id, id),
      eq(chapbooks.buildState, "building"),
      eq(chapbooks.leaseUntil, leaseUntil),
    );

  async function build({ id, leaseUntil }: { id: number; leaseUntil: Date }): Promise<void> {
    const builtFrom = await fingerprintOf(id);
    const content = await gather(id);
    if (!content) return;
    let lastWrite = 0;
    let files: ChapbookFiles;
    try {
      files = await options.render(content, (done) => {
        if (Date.now() - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = Date.now();
        void db
          .update(chapbooks)
          .set({ buildProgress: done })
          .where(ours(id, leaseUntil))
          .catch(() => {});
      });
    } catch (error) {
      logger.error({ err: error, chapbookId: id }, "a chapbook could not be made");
      await db
        .update(chapbooks)
        .set({ buildState: "failed", buildError: "The files could not be made; see the log" })
        .where(ours(id, leaseUntil));
      return;
    }
    await db
      .update(chapbooks)
      .set({
        buildState: "ready",
        buildProgress: content.poems.length,
        pdf: Buffer.from(files.pdf),
        epub: Buffer.from(files.epub),
        builtFrom,
        builtAt: now(),
        leaseUntil: null,
      })
      .where(ours(id, leaseUntil));
  }

  const loop = createBackgroundLoop({
    name: "chapbook builder",
    pollMs: options.pollMs,
    logger,
    async step() {
      if (isRecheckDue) {
        isRecheckDue = false;
        await queueChanged();
      }
      const claimed = await claim();
      if (!claimed) return 0;
      await build(claimed);
      return 1;
    },
  });
  deps.contentChanges.onChange(() => {
    isRecheckDue = true;
    loop.wake();
  });
  deps.chapbooks.whenQueued(() => loop.wake());

  return {
    loop,
    /** Builds what is queued now, to the end (tests, the CLI). */
    async buildQueued(): Promise<number> {
      let built = 0;
      if (isRecheckDue) {
        isRecheckDue = false;
        await queueChanged();
      }
      for (let claimed = await claim(); claimed; claimed = await claim()) {
        await build(claimed);
        built += 1;
      }
      return built;
    },
  };
}
