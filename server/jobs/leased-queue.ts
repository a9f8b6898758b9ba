import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.ts";
import { createBackgroundLoop } from "./loop.ts";

/** One worker of a batch's pool: it handles the rows given to it in turn, then closes. */
export interface BatchWorker<Row, Outcome extends string> {
  handle(row: Row): Promise<Outcome>;
  close?(): void;
}

export interface LeasedQueueSpec<Row, Batch, Outcome extends string> {
  /** Names the work in the log: "<name> failed; retrying at the next poll". */
  name: string;
  logger: Logger;
  /** Rows claimed per round trip. */
  batchSize: number;
  /** Rows worked on at once on this instance: also the most a crash can leave half-done. */
  concurrency: number;
  /** How often an idle queue looks for work that another instance queued or that fell due. */
  pollMs: number;
  /** Claims up to `limit` rows under the token (server/jobs/leased-rows.ts). */
  claim(claimToken: string, limit: number): Promise<Row[]>;
  /** Reads once what the batch's rows share (their runs, bodies, recipients…). */
  prepare(claimed: Row[], claimToken: string): Promise<Batch>;
  /** One worker of the pool; each handles rows until none are left. */
  worker(batch: Batch, claimToken: string): BatchWorker<Row, Outcome>;
  /** After every row of the batch is settled. */
  finish?(claimed: Row[], batch: Batch): Promise<void>;
  /** The batch's log line: its outcomes counted, and these fields beside them. */
  logged: { message: string; fields?: (claimed: Row[]) => Record<string, unknown> };
  /** Ends this process's claims after a restart on the embedded database (see `releaseAll`). */
  releaseOwnClaims(): Promise<void>;
}

/**
 * The one engine behind every queue of leased rows (docs/decisions/077-one-home-for-background-work.md):
 * a batch is claimed under a fresh token, what it shares is read once, a pool of workers settles
 * its rows, and the loop claims again while there is work and polls when there is none.
 */
export function createLeasedQueue<Row, Batch, Outcome extends string>(
  spec: LeasedQueueSpec<Row, Batch, Outcome>,
) {
  /** Claims and works one batch; the number of rows it claimed (0: nothing due now). */
  async function runBatch(): Promise<number> {
    const claimToken = randomUUID();
    const claimed = await spec.claim(claimToken, spec.batchSize);
    if (claimed.length === 0) return 0;
    const batch = await spec.prepare(claimed, claimToken);
    const outcomes: Partial<Record<Outcome, number>> = {};
    const queue = [...claimed];
    const work = async () => {
      const worker = spec.worker(batch, claimToken);
      try {
        for (let row = queue.shift(); row !== undefined; row = queue.shift()) {
          const outcome = await worker.handle(row);
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        }
      } finally {
        worker.close?.();
      }
    };
    await Promise.all(Array.from({ length: Math.min(spec.concurrency, claimed.length) }, work));
    await spec.finish?.(claimed, batch);
    const line: Record<string, unknown> = { ...spec.logged.fields?.(claimed), ...outcomes };
    spec.logger.info(line, spec.logged.message);
    return claimed.length;
  }

  const loop = createBackgroundLoop({
    name: spec.name,
    step: runBatch,
    pollMs: spec.pollMs,
    logger: spec.logger,
  });

  return {
    name: spec.name,
    runBatch,

    /** Works until nothing is due now (tests and the CLI; servers run the loop). */
    async drain(): Promise<void> {
      while ((await runBatch()) > 0) {}
    },

    releaseOwnClaims: spec.releaseOwnClaims,
    /** Looks for work now instead of at the next poll (after work was queued on this instance). */
    wake: loop.wake,
    start: loop.start,
    /** Finishes the batch in hand (its claims would otherwise wait out their lease) and stops. */
    stop: loop.stop,
  };
}
