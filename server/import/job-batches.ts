import { and, eq, sql } from "drizzle-orm";
import { notFound } from "../core/errors.ts";
import { importJobs, type StoredParsedImport, subscriptions } from "../db/schema.ts";
import { createFilePreparer, hasReadingToCopy, type PreparedPoem } from "./files.ts";
import { findImported, itemKey } from "./identity.ts";
import type { ImportDeps, ImportOptions } from "./import.ts";
import { type JobClaims, LostClaimError } from "./job-claims.ts";
import type { JobRow } from "./job-progress.ts";
import { insertPoems, keepOldAddresses } from "./poem-batch.ts";
import { isImportable } from "./preview.ts";
import { tagIdsFor } from "./tags.ts";
import type { ImportSource } from "./types.ts";
import { updateChangedPoems } from "./updates.ts";

/*
 * The job's batches (docs/decisions/052-the-import-job.md): its poems, then its subscribers,
 * each batch one transaction that also moves the job's cursor, so a stop at any moment resumes
 * exactly where it was.
 */

/** Poems a batch when covers are fetched: at the fetch's 5 s deadline each, well inside the lease. */
const COVER_BATCH_SIZE = 8;

/** The platforms by name, for the consent each imported subscriber keeps on record. */
const PLATFORM_NAMES: Record<ImportSource, string> = {
  substack: "Substack",
  ghost: "Ghost",
  wordpress: "WordPress",
  files: "plain files",
};

/** What a batch is written with. */
interface BatchParts extends Pick<ImportDeps, "db" | "now" | "markPoemsAsHistory"> {
  options: ImportOptions;
  files: ReturnType<typeof createFilePreparer>;
  claims: JobClaims;
}

/** Writes the next batch of the oldest confirmed job, and ends the job after its last. */
export function createBatchWriter(deps: ImportDeps, options: ImportOptions, claims: JobClaims) {
  const { db, logger, now, contentChanges } = deps;
  const { claimToken, jobRows, ownedBy } = claims;
  const parts: BatchParts = {
    db,
    now,
    markPoemsAsHistory: deps.markPoemsAsHistory,
    options,
    files: createFilePreparer(deps),
    claims,
  };
  let lastAnnounced = 0;

  async function announceSoon(force: boolean) {
    if (!force && Date.now() - lastAnnounced < options.announceEveryMs) return;
    lastAnnounced = Date.now();
    await contentChanges.announce();
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

  /** One batch of the oldest confirmed job; 0 when there is none. */
  async function writeNextBatch(): Promise<number> {
    const [job] = await jobRows.claim(claimToken, 1);
    if (!job) return 0;
    try {
      const parsed = await exportOf(job.id);
      if (job.poemCursor < job.poemCount) {
        await writePoemBatch(parts, job, parsed);
        await announceSoon(false);
        return 1;
      }
      const subscribersLeft =
        job.subscribersConsented && job.subscriberCursor < job.subscriberCount;
      if (subscribersLeft) {
        await writeSubscriberBatch(parts, job, parsed);
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

  return { writeNextBatch };
}

async function writePoemBatch(
  parts: BatchParts,
  job: JobRow,
  parsed: StoredParsedImport,
): Promise<void> {
  const { db, now, options, files } = parts;
  const { jobRows, ownedBy } = parts.claims;
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
      markPoemsAsHistory: parts.markPoemsAsHistory,
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

async function writeSubscriberBatch(
  parts: BatchParts,
  job: JobRow,
  parsed: StoredParsedImport,
): Promise<void> {
  const { db, now, options } = parts;
  const { jobRows, ownedBy } = parts.claims;
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
