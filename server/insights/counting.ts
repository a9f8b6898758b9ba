import type { ServiceDeps } from "../core/deps.ts";
import { createPeriodicLoop } from "../jobs/loop.ts";
import { createAddressBook } from "./address.ts";
import { createCountingBatches } from "./counting-batch.ts";
import { createDayClock } from "./day-clock.ts";
import { METRICS } from "./day-rows.ts";
import { createPendingCounts } from "./pending-counts.ts";
import { readerRequests } from "./reader-requests.ts";
import { createSourceReader } from "./source-reader.ts";

/**
 * Counting without tracking (docs/decisions/049-counting-without-tracking.md, hardened by
 * 055-a-visit-per-page-and-a-crowd-per-address.md; docs/product/insights.md). A reader's request
 * costs a few map updates here (reader-requests.ts): whether its address is within a household's
 * visitors and a reader's pace, and the view and its visitor put aside (pending-counts.ts).
 * Everything else waits for the batch (counting-batch.ts), every FLUSH_INTERVAL_MS and on a
 * graceful stop: the hashes are made and the rows written in slices, yielding to the event loop
 * between them, so a cached page never waits behind a batch (on the embedded database the batch
 * runs in this very process).
 */

/** How often counts reach the database: a SIGKILL loses at most this much. */
export const FLUSH_INTERVAL_MS = 10_000;

export interface PageView {
  path: string;
  /** The query without its `?`: read for `utm_source` and a share link's `s`, never kept. */
  query: string;
  address: string;
  userAgent: string;
  referrer: string | undefined;
}

/** What a reading beacon carries, already within its shape (server/insights/routes.ts). */
export interface Reading {
  poem: string;
  /** Stanza indices on screen for ≥ 2 s in one visit; absent for a share press alone. */
  reached?: number[];
  /** The stanza whose share, copy-link or save-image button was pressed. */
  shared?: number;
}

export { METRICS };

export function createCounting(deps: ServiceDeps & { secret: string }) {
  const { db, config, logger, now } = deps;
  const clock = createDayClock(config, now);
  const memory = createPendingCounts(() => loop.wake());
  const addressBook = createAddressBook();
  const sources = createSourceReader(db, config, now);
  const { flush } = createCountingBatches(deps, { today: clock.today, memory, addressBook });

  const loop = createPeriodicLoop({
    name: "counting",
    run: async () => {
      await flush();
      await sources.refreshWhenDue();
    },
    everyMs: FLUSH_INTERVAL_MS,
    logger,
  });

  return {
    today: clock.today,
    flush,
    refreshFollowerHosts: sources.refresh,
    start: () => loop.start(),
    stop: () => loop.stop(),
    ...readerRequests({ clock, memory, addressBook, sources }),
  };
}

export type Counting = ReturnType<typeof createCounting>;
