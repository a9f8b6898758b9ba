import type { ServiceDeps } from "../core/deps.ts";
import { createCounting, type PageView, type Reading } from "./counting.ts";
import { digestLinkClicks } from "./digest-link-clicks.ts";
import { createInsightsOverTime } from "./over-time.ts";
import { poemInsights } from "./poem-insights.ts";
import { readingBeacons } from "./reading-beacons.ts";
import { siteSummary } from "./site-summary.ts";

/**
 * The poet's insights (docs/product/insights.md): what the counting (./counting.ts,
 * docs/decisions/049-counting-without-tracking.md and 055-a-visit-per-page-and-a-crowd-per-
 * address.md) wrote to daily rows, read back for the admin (site-summary.ts, poem-insights.ts),
 * and the checks a beacon and a digest click pass before they are counted (reading-beacons.ts,
 * digest-link-clicks.ts).
 */

export type { PageView, Reading };

export function createInsightsService(deps: ServiceDeps & { counting: boolean; secret: string }) {
  const counting = createCounting(deps);
  const { today, flush } = counting;
  const overTime = createInsightsOverTime(deps.db, deps.config, today);

  return {
    /** Whether this instance counts at all (COUNTING). */
    counting: deps.counting,

    /** A page a person asked for, answered 200 (server/http/page-views.ts decides). */
    recordPageView: counting.recordPageView,

    /** A platform's bot fetched a stanza's share card. */
    recordPreview: counting.recordPreview,

    ...readingBeacons(deps, counting),
    ...digestLinkClicks(deps, counting),

    /** Reads the followers' servers now (a follow or an unfollow; tests). */
    refreshFollowerHosts: counting.refreshFollowerHosts,

    flush,
    start: counting.start,
    /** Stops the batches and writes what memory still holds (a graceful stop). */
    async stop(): Promise<void> {
      await counting.stop();
      await flush().catch((error: unknown) =>
        deps.logger.error({ err: error }, "the last counts could not be written"),
      );
    },

    ...siteSummary(deps, flush, overTime),
    ...poemInsights(deps, flush, overTime),
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
