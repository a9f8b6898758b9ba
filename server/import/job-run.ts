import { eq } from "drizzle-orm";
import { importJobs } from "../db/schema.ts";
import { createBackgroundLoop } from "../jobs/loop.ts";
import type { ImportDeps, ImportOptions } from "./import.ts";
import { createBatchWriter } from "./job-batches.ts";
import { createJobClaims } from "./job-claims.ts";

/**
 * The confirmed jobs, written in small batches by a background loop on every instance
 * (docs/decisions/052-the-import-job.md).
 */
export function createJobRun(deps: ImportDeps, options: ImportOptions) {
  const claims = createJobClaims(deps.db, options.leaseSeconds);
  const { writeNextBatch } = createBatchWriter(deps, options, claims);

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

  const loop = createBackgroundLoop({
    name: "import",
    step,
    pollMs: options.pollMs,
    logger: deps.logger,
  });

  return {
    loop,
    step,

    /** On the embedded database this process is the only importer: claims from before a stop are void. */
    releaseOwnClaims: () => claims.jobRows.releaseAll(eq(importJobs.state, "importing")),
  };
}

export type JobRun = ReturnType<typeof createJobRun>;
