import { randomUUID } from "node:crypto";
import { and, desc, eq, getTableColumns, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import * as paths from "../../common/paths.ts";
import type {
  ImportConfirmInput,
  ImportJob,
  ImportPreview,
  ImportRedirect,
} from "../../common/schemas/import.ts";
import { redirectKey } from "../../common/site-pages.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, invalid, notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import {
  importJobs,
  importRedirects,
  poems,
  type StoredParsedImport,
  subscriptions,
} from "../db/schema.ts";
import { leasedRows } from "../jobs/leased-rows.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import {
  type CoverFetcher,
  createFilePreparer,
  hasReadingToCopy,
  type PreparedPoem,
  type ReadingFetcher,
} from "./files.ts";
import { findImported, itemKey, textSet } from "./identity.ts";
import { type ImportInput, parseImport } from "./parse.ts";
import { insertPoems, keepOldAddresses } from "./poem-batch.ts";
import { isImportable, previewPoems, subscriberSummary, toStored } from "./preview.ts";
import { tagIdsFor } from "./tags.ts";
import { ImportFileError, type ImportSource, type ParsedImport } from "./types.ts";
import { updateChangedPoems } from "./updates.ts";

export interface ImportOptions {
  /** Poems written per transaction: small, so pages waiting on the database wait little. */
  poemBatchSize: number;
  /** Subscribers written per transaction. */
  subscriberBatchSize: number;
  /** How long a claim on a job holds without a batch renewing it. */
  leaseSeconds: number;
  /** How often an idle loop looks for a job another instance confirmed. */
  pollMs: number;
  /** Pages are told of new poems at most this often while a job runs, and once at its end. */
  announceEveryMs: number;
}

const DEFAULTS: ImportOptions = {
  poemBatchSize: 25,
  subscriberBatchSize: 500,
  leaseSeconds: 60,
  pollMs: 2_000,
  announceEveryMs: 10_000,
};

/** An unconfirmed preview is kept this long (the poet may read it over lunch), then dropped. */
const PREVIEW_KEPT_MS = 24 * 60 * 60 * 1000;
/** Poems a batch when covers are fetched: at the fetch's 5 s deadline each, well inside the lease. */
const COVER_BATCH_SIZE = 8;

/** A job as its progress is read: everything but the export it holds. */
const { parsed: _parsed, ...jobColumns } = getTableColumns(importJobs);
type JobRow = Omit<typeof importJobs.$inferSelect, "parsed">;

/** The job's claim passed to another instance mid-batch: the batch is rolled back. */
class LostClaimError extends Error {
  override name = "LostClaimError";
}

/** The platforms by name, for the consent each imported subscriber keeps on record. */
const PLATFORM_NAMES: Record<ImportSource, string> = {
  substack: "Substack",
  ghost: "Ghost",
  wordpress: "WordPress",
  files: "plain files",
};

/**
 * Imports from other platforms (docs/product/import.md, docs/decisions/052-the-import-job.md):
 * the preview of an export, stored as a job that writes nothing else until the poet confirms;
 * then the job, written in small batches by a background loop on every instance (claimed with
 * a lease, as the digest sender claims deliveries), each batch one transaction that also moves
 * the job's cursors, so a stop at any moment resumes exactly where it was. And the old links:
 * each imported poem's addresses on its old site answer a 301 to its page here.
 */
export function createImportService(
  deps: ServiceDeps & {
    contentChanges: ContentChanges;
    /**
     * Written in the transaction that makes the poems: an import brings the poet's past, not
     * news, so the fediverse marks them never to be sent to followers (decision 047).
     */
    markPoemsAsHistory: (tx: Pick<Database, "insert">, poemIds: number[]) => Promise<void>;
    /** Fetches a cover into our storage; absent, covers are kept as references. */
    fetchCover?: CoverFetcher;
    /** Fetches a reading into our storage; absent, readings are kept as links. */
    fetchReading?: ReadingFetcher;
    options?: Partial<ImportOptions>;
  },
) {
  const { db, logger, now, contentChanges } = deps;
  const options = { ...DEFAULTS, ...deps.options };
  const files = createFilePreparer(deps);
  /** This instance's claims; a restart is a new instance, whose claims are new. */
  const claimToken = randomUUID();
  let lastAnnounced = 0;

  async function announceSoon(force: boolean) {
    if (!force && Date.now() - lastAnnounced < options.announceEveryMs) return;
    lastAnnounced = Date.now();
    await contentChanges.announce();
  }

  function jobView(job: JobRow): ImportJob {
    return {
      id: job.id,
      source: job.source,
      fileName: job.fileName,
      state: job.state,
      poemsSelected: job.selectedPoemCount,
      poemsDone: job.poemsImported + job.poemsAlreadyImported,
      poemsImported: job.poemsImported,
      poemsAlreadyImported: job.poemsAlreadyImported,
      poemsUpdated: job.poemsUpdated,
      subscribersToImport: job.subscribersConsented ? job.importableSubscriberCount : 0,
      subscribersDone: job.subscribersImported + job.subscribersExisting,
      subscribersImported: job.subscribersImported,
      subscribersExisting: job.subscribersExisting,
      subscribersSkipped: job.subscribersSkipped,
      fetchCovers: job.fetchCovers,
      subscribersConsented: job.subscribersConsented,
      notes: job.notes,
      error: job.error,
      createdAt: job.createdAt,
      finishedAt: job.finishedAt,
    };
  }

  async function readJob(id: number): Promise<JobRow> {
    const [job] = await db.select(jobColumns).from(importJobs).where(eq(importJobs.id, id));
    if (!job) throw notFound("Import not found");
    return job;
  }

  /** Parses an export; a file the parsers refuse is a 400 naming the file and the line. */
  async function parse(input: ImportInput, source?: ImportSource): Promise<ParsedImport> {
    try {
      return await parseImport(input, source, { now: now() });
    } catch (error) {
      if (error instanceof ImportFileError) {
        // The parsers' messages already say where: "posts.csv, line 12: …".
        throw invalid(error.message, { file: [error.message] });
      }
      const name = "fileName" in input ? input.fileName : input.directory;
      logger.warn({ err: error, file: name }, "an import file could not be read");
      throw invalid(`${name}: the file could not be read as an export`, {
        file: [`${name} could not be read`],
      });
    }
  }

  /**
   * The export a running job writes, read from its row once: a batch reads its slice from here.
   * It never changes after the preview, so the copy is good until the job ends.
   */
  const exports = new Map<number, StoredParsedImport>();
  async function exportOf(jobId: number): Promise<StoredParsedImport> {
    const kept = exports.get(jobId);
    if (kept) return kept;
    const [row] = await db
      .select({ parsed: importJobs.parsed })
      .from(importJobs)
      .where(eq(importJobs.id, jobId));
    if (!row) throw notFound("Import not found");
    exports.set(jobId, row.parsed);
    return row.parsed;
  }

  /** Confirmed jobs, one at a time per claim: the oldest no live claim holds, or this instance's own. */
  const jobRows = leasedRows(db, {
    table: importJobs,
    claimable: and(
      eq(importJobs.state, "importing"),
      or(
        isNull(importJobs.claimedBy),
        eq(importJobs.claimedBy, claimToken),
        lte(importJobs.leaseUntil, sql`now()`),
      ),
    ),
    orderBy: [importJobs.id],
    returning: jobColumns,
    leaseSeconds: options.leaseSeconds,
  });
  /** The job's state write in a batch: only while this instance still holds the claim. */
  const ownedBy = (jobId: number) => jobRows.ownedBy(jobId, claimToken) as SQL;

  async function writePoemBatch(job: JobRow, parsed: StoredParsedImport): Promise<void> {
    // Fetching covers takes seconds a poem at worst: fewer poems a batch keep within the lease.
    const batchSize = job.fetchCovers
      ? Math.min(options.poemBatchSize, COVER_BATCH_SIZE)
      : options.poemBatchSize;
    let batch = parsed.poems.slice(job.poemCursor, job.poemCursor + batchSize);
    if (job.fetchCovers && files.copiesReadings) {
      // A reading may take half the lease to copy (server/media/fetch-reading.ts): a poem with
      // one is a batch of its own.
      const readingAt = batch.findIndex(hasReadingToCopy);
      if (readingAt !== -1) batch = batch.slice(0, Math.max(readingAt, 1));
    }
    const excluded = new Set(job.excluded);
    const chosen = batch.filter((poem) => !excluded.has(poem.sourceId));
    const earlier = await findImported(db, job.source, chosen);
    const prepared: PreparedPoem[] = [];
    for (const poem of chosen) {
      prepared.push(
        earlier.has(itemKey(poem))
          ? { poem, cover: null, audioUrl: null, notes: [] }
          : await files.prepareFiles(poem, job.fetchCovers),
      );
    }
    const asOf = now();
    await db.transaction(async (tx) => {
      const done = await findImported(tx, job.source, chosen);
      const fresh = prepared.filter((item) => !done.has(itemKey(item.poem)));
      const updated = await updateChangedPoems(tx, {
        chosen: chosen.filter((poem) => job.updates.includes(poem.sourceId)),
        imported: done,
        replacedBy: job.createdBy,
        tagIdsFor: (names) => tagIdsFor(tx, names),
      });
      const inserted = await insertPoems(tx, {
        job,
        fresh,
        asOf,
        markPoemsAsHistory: deps.markPoemsAsHistory,
      });
      const notes = prepared.flatMap((item) => item.notes);
      notes.push(...(await keepOldAddresses(tx, { job, fresh, inserted, done })));
      const moved = await tx
        .update(importJobs)
        .set({
          poemCursor: job.poemCursor + batch.length,
          poemsImported: sql`${importJobs.poemsImported} + ${inserted.length}`,
          poemsAlreadyImported: sql`${importJobs.poemsAlreadyImported} + ${chosen.length - fresh.length - updated}`,
          poemsUpdated: sql`${importJobs.poemsUpdated} + ${updated}`,
          notes: sql`${importJobs.notes} || ${JSON.stringify(notes)}::jsonb`,
          leaseUntil: jobRows.lease(),
        })
        .where(and(ownedBy(job.id), eq(importJobs.poemCursor, job.poemCursor)))
        .returning({ id: importJobs.id });
      if (moved.length === 0) throw new LostClaimError();
    });
  }

  async function writeSubscriberBatch(job: JobRow, parsed: StoredParsedImport): Promise<void> {
    const batch = parsed.subscribers.slice(
      job.subscriberCursor,
      job.subscriberCursor + options.subscriberBatchSize,
    );
    const importable = batch.filter(isImportable);
    const asOf = now();
    const consentSource = `${PLATFORM_NAMES[job.source]} export (${job.fileName}), consent confirmed by the poet`;
    await db.transaction(async (tx) => {
      const inserted =
        importable.length === 0
          ? []
          : await tx
              .insert(subscriptions)
              .values(
                importable.map((subscriber) => ({
                  email: subscriber.email,
                  name: subscriber.name,
                  verified: true,
                  verifiedAt: asOf,
                  consentSource,
                  importedAt: asOf,
                  createdAt: subscriber.subscribedAt ? new Date(subscriber.subscribedAt) : asOf,
                })),
              )
              .onConflictDoNothing({ target: subscriptions.email })
              .returning({ id: subscriptions.id });
      const moved = await tx
        .update(importJobs)
        .set({
          subscriberCursor: job.subscriberCursor + batch.length,
          subscribersImported: sql`${importJobs.subscribersImported} + ${inserted.length}`,
          subscribersExisting: sql`${importJobs.subscribersExisting} + ${importable.length - inserted.length}`,
          subscribersSkipped: sql`${importJobs.subscribersSkipped} + ${batch.length - importable.length}`,
          leaseUntil: jobRows.lease(),
        })
        .where(and(ownedBy(job.id), eq(importJobs.subscriberCursor, job.subscriberCursor)))
        .returning({ id: importJobs.id });
      if (moved.length === 0) throw new LostClaimError();
    });
  }

  /**
   * One batch at a time per instance, whoever asks (the loop, or the CLI waiting on its job). The
   * embedded database runs its statements on this process's own thread, so there a batch is
   * followed by a rest as long as it took: readers' requests get at least half the process while
   * an import runs (docs/product/performance.md).
   */
  let stepping: Promise<number> | undefined;
  function step(): Promise<number> {
    stepping ??= (async () => {
      const started = performance.now();
      const handled = await writeNextBatch();
      if (handled > 0 && deps.ownsDatabase) {
        await new Promise((resolve) => setTimeout(resolve, performance.now() - started));
      }
      return handled;
    })().finally(() => {
      stepping = undefined;
    });
    return stepping;
  }

  /** One batch of the oldest confirmed job; 0 when there is none. */
  async function writeNextBatch(): Promise<number> {
    const [job] = await jobRows.claim(claimToken, 1);
    if (!job) return 0;
    try {
      const parsed = await exportOf(job.id);
      if (job.poemCursor < job.poemCount) {
        await writePoemBatch(job, parsed);
        await announceSoon(false);
        return 1;
      }
      const subscribersLeft =
        job.subscribersConsented && job.subscriberCursor < job.subscriberCount;
      if (subscribersLeft) {
        await writeSubscriberBatch(job, parsed);
        return 1;
      }
      await db
        .update(importJobs)
        .set({ state: "done", finishedAt: now(), claimedBy: null, leaseUntil: null })
        .where(ownedBy(job.id));
      exports.delete(job.id);
      await announceSoon(true);
      return 1;
    } catch (error) {
      if (error instanceof LostClaimError) {
        // Another instance took the job over (this one's lease ran out): its batch was undone.
        logger.warn(
          { jobId: job.id },
          "an import batch was undone: another instance holds the job",
        );
        return 1;
      }
      // A batch that fails is rolled back whole; the job stops with the reason, and nothing
      // of that batch is left half-written.
      logger.error({ err: error, jobId: job.id }, "import batch failed");
      await db
        .update(importJobs)
        .set({
          state: "failed",
          error: `The import stopped: ${(error as Error).message}`.slice(0, 500),
          finishedAt: now(),
          claimedBy: null,
          leaseUntil: null,
        })
        .where(ownedBy(job.id));
      exports.delete(job.id);
      await announceSoon(true);
      return 1;
    }
  }

  function createPreview(
    createdBy: string | null,
    input: ImportInput,
    source?: ImportSource,
  ): Promise<ImportPreview> {
    const fileName =
      "fileName" in input ? input.fileName : input.directory.split(/[\\/]/).pop() || "folder";
    return parse(input, source).then((parsed) => keepPreview(createdBy, fileName, parsed));
  }

  async function keepPreview(
    createdBy: string | null,
    fileName: string,
    parsed: ParsedImport,
  ): Promise<ImportPreview> {
    const stored = toStored(parsed);
    await db.delete(importJobs).where(
      and(
        eq(importJobs.state, "preview"),
        // Real time, like the row's own created_at (docs/decisions/038-which-clock.md).
        lte(importJobs.createdAt, sql`now() - make_interval(secs => ${PREVIEW_KEPT_MS / 1000})`),
      ),
    );
    const [job] = await db
      .insert(importJobs)
      .values({
        source: stored.source,
        fileName,
        parsed: stored,
        poemCount: stored.poems.length,
        subscriberCount: stored.subscribers.length,
        importableSubscriberCount: stored.subscribers.filter(isImportable).length,
        selectedPoemCount: stored.poems.length,
        createdBy,
      })
      .returning(jobColumns);
    if (!job) throw new Error("import job insert returned nothing");
    return {
      job: jobView(job),
      poems: await previewPoems(db, stored),
      subscribers: await subscriberSummary(db, stored),
      skipped: stored.skipped,
    };
  }

  async function confirmJob(id: number, input: ImportConfirmInput): Promise<ImportJob> {
    const excluded = [...new Set(input.exclude)];
    const [job] = await db
      .update(importJobs)
      .set({
        state: "importing",
        excluded,
        updates: [...new Set(input.update ?? [])],
        // Only ids the export holds count as left out.
        selectedPoemCount: sql`${importJobs.poemCount} - (select count(*)::int from jsonb_array_elements(${importJobs.parsed} -> 'poems') as poem where poem ->> 'sourceId' in ${textSet(excluded)})`,
        fetchCovers: input.fetchCovers,
        subscribersConsented: input.subscribersConsented,
        confirmedAt: now(),
      })
      .where(and(eq(importJobs.id, id), eq(importJobs.state, "preview")))
      .returning(jobColumns);
    if (!job) {
      await readJob(id);
      throw conflict("This import was already confirmed");
    }
    loop.wake();
    return jobView(job);
  }

  const loop = createBackgroundLoop({
    name: "import",
    step,
    pollMs: options.pollMs,
    logger,
  });

  /** The old links, read once per content change: a page 404 looks here, never the database. */
  let redirectMap: Promise<Map<string, string>> | undefined;
  contentChanges.onChange(() => {
    redirectMap = undefined;
  });
  async function loadRedirects(): Promise<Map<string, string>> {
    const rows = await db
      .select({ path: importRedirects.path, slug: poems.slug })
      .from(importRedirects)
      .innerJoin(poems, eq(poems.id, importRedirects.poemId))
      .where(isNull(poems.deletedAt));
    return new Map(rows.map((row) => [row.path, paths.poem(row.slug)]));
  }

  return {
    loop,
    step,

    /** Parses an export and keeps it as a job awaiting the poet's confirmation; nothing else is written. */
    preview(admin: AdminActor, input: ImportInput, source?: ImportSource): Promise<ImportPreview> {
      return createPreview(admin.id, input, source);
    },

    /**
     * The poet's go: the poems they kept, the cover choice and, for subscribers, their word that
     * the readers consented on the old platform. The job then runs in the background.
     */
    confirm(_admin: AdminActor, id: number, input: ImportConfirmInput): Promise<ImportJob> {
      return confirmJob(id, input);
    },

    /**
     * The operator's import (`npm run cli -- import`): the same preview, then, unless it is a dry
     * run, the same job with every poem chosen, run to its end here, batch after batch.
     */
    async importAsOperator(
      input: ImportInput,
      source: ImportSource | undefined,
      choices: { dryRun: boolean; fetchCovers: boolean; subscribersConsented: boolean },
    ): Promise<{ preview: ImportPreview; job: ImportJob | null }> {
      const preview = await createPreview(null, input, source);
      if (choices.dryRun) {
        await db.delete(importJobs).where(eq(importJobs.id, preview.job.id));
        return { preview, job: null };
      }
      const { id } = await confirmJob(preview.job.id, { exclude: [], ...choices });
      for (;;) {
        const job = await readJob(id);
        if (job.state !== "importing") return { preview, job: jobView(job) };
        if ((await step()) === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },

    async getJob(_admin: AdminActor, id: number): Promise<ImportJob> {
      return jobView(await readJob(id));
    },

    /** The confirmed imports, newest first (previews not confirmed are not history). */
    async listJobs(_admin: AdminActor): Promise<ImportJob[]> {
      const rows = await db
        .select(jobColumns)
        .from(importJobs)
        .where(sql`${importJobs.state} <> 'preview'`)
        .orderBy(desc(importJobs.id))
        .limit(20);
      return rows.map(jobView);
    },

    /** On the embedded database this process is the only importer: claims from before a stop are void. */
    releaseOwnClaims: () => jobRows.releaseAll(eq(importJobs.state, "importing")),

    async listRedirects(_admin: AdminActor): Promise<ImportRedirect[]> {
      return db
        .select({
          id: importRedirects.id,
          path: importRedirects.path,
          poemSlug: poems.slug,
          poemTitle: poems.title,
        })
        .from(importRedirects)
        .innerJoin(poems, eq(poems.id, importRedirects.poemId))
        .orderBy(importRedirects.path);
    },

    async deleteRedirect(_admin: AdminActor, id: number): Promise<void> {
      const deleted = await db
        .delete(importRedirects)
        .where(eq(importRedirects.id, id))
        .returning({ id: importRedirects.id });
      if (deleted.length === 0) throw notFound("Redirect not found");
      await contentChanges.announce();
    },

    /**
     * Where an old address now lives (`/poetry/{slug}`), for a request this site has no page
     * for, or for the home page with WordPress's `?p=`. Read from memory.
     */
    async redirectFor(path: string, search: string): Promise<string | undefined> {
      const postId = path === "/" ? new URLSearchParams(search).get("p") : null;
      const key = postId === null ? redirectKey(path) : redirectKey(`/?p=${postId}`);
      if (key === undefined) return undefined;
      redirectMap ??= loadRedirects().catch((error: unknown) => {
        redirectMap = undefined;
        throw error;
      });
      return (await redirectMap).get(key);
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
