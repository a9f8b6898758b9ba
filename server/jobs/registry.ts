/** Work a server process runs in the background, beside the requests it answers. */
export interface BackgroundJob {
  /** What the work is, in the log and in docs/ARCHITECTURE.md's list. */
  name: string;
  start(): void;
  /** Finishes the work in hand and stops. */
  stop(): Promise<void>;
  /** Ends the claims this process held before a restart (see server/jobs/leased-rows.ts). */
  releaseOwnClaims?(): Promise<void>;
}

/**
 * Every background job of one process, started and stopped as one
 * (docs/decisions/077-one-home-for-background-work.md). They stop in the order given, so the
 * work whose end writes to the database (the counting's flush) is listed last.
 */
export function createJobs(jobs: BackgroundJob[], { ownsDatabase }: { ownsDatabase: boolean }) {
  let isStarted = false;
  return {
    names: jobs.map((job) => job.name),

    /**
     * Starts every job. On the embedded database this process is the only worker (its data
     * directory is locked), so the claims it finds from before a crash are released first.
     */
    async start(): Promise<void> {
      if (isStarted) return;
      isStarted = true;
      if (ownsDatabase) {
        for (const job of jobs) await job.releaseOwnClaims?.();
      }
      for (const job of jobs) job.start();
    },

    async stop(): Promise<void> {
      isStarted = false;
      for (const job of jobs) await job.stop();
    },
  };
}
