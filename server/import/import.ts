import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import type { CoverFetcher, ReadingFetcher } from "./files.ts";
import { jobProgress } from "./job-progress.ts";
import { createJobRun } from "./job-run.ts";
import { jobStart } from "./job-start.ts";
import { oldLinks } from "./old-links.ts";

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

export type ImportDeps = ServiceDeps & {
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
};

/**
 * Imports from other platforms (docs/product/import.md, docs/decisions/052-the-import-job.md):
 * the preview of an export, stored as a job that writes nothing else until the poet confirms;
 * then the job, written in small batches by a background loop on every instance (claimed with
 * a lease, as the digest sender claims deliveries), each batch one transaction that also moves
 * the job's cursors, so a stop at any moment resumes exactly where it was. And the old links:
 * each imported poem's addresses on its old site answer a 301 to its page here.
 */
export function createImportService(deps: ImportDeps) {
  const options = { ...DEFAULTS, ...deps.options };
  const run = createJobRun(deps, options);
  return {
    ...run,
    ...jobStart(deps, run),
    ...jobProgress(deps.db),
    ...oldLinks(deps),
  };
}

export type ImportService = ReturnType<typeof createImportService>;
