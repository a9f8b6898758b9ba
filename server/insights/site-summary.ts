import { and, desc, eq, gte, inArray, like, type SQL, sql } from "drizzle-orm";
import type { InsightsSummary } from "../../common/schemas/insights.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { dailyCounts, poems } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { METRICS } from "./counting.ts";
import { POEM_PATH_PREFIX, toInt } from "./daily-counts.ts";
import type { createInsightsOverTime } from "./over-time.ts";
import { groupOf } from "./sources.ts";

const TOP_POEMS = 10;
const TOP_SOURCES = 20;

/** The site's views and visitors of each day of the window. */
function siteDays(db: Database, inWindow: SQL) {
  return db
    .select({ day: dailyCounts.day, metric: dailyCounts.metric, count: dailyCounts.count })
    .from(dailyCounts)
    .where(
      and(
        inArray(dailyCounts.metric, [METRICS.views, METRICS.visitors]),
        inWindow,
        eq(dailyCounts.subject, ""),
      ),
    );
}

/**
 * The window's views per path first, then only the leaders looked up among the poems (a slug's
 * own index) and given their visitors: a deleted poem's path may lead, so a few more than shown
 * are read.
 */
function topPoems(db: Database, inWindow: SQL, from: string) {
  const views = sql<number>`sum(${dailyCounts.count})`;
  const leaders = db
    .select({ path: dailyCounts.subject, views: views.as("views") })
    .from(dailyCounts)
    .where(
      and(
        eq(dailyCounts.metric, METRICS.views),
        inWindow,
        like(dailyCounts.subject, `${POEM_PATH_PREFIX}%`),
      ),
    )
    .groupBy(dailyCounts.subject)
    .orderBy(desc(views), dailyCounts.subject)
    .limit(TOP_POEMS * 5)
    .as("leaders");
  return db
    .select({
      slug: poems.slug,
      title: poems.title,
      views: leaders.views,
      visitors: sql<number>`(select sum(visited.count) from ${dailyCounts} as visited
            where visited.metric = ${METRICS.visitors} and visited.subject = ${leaders.path}
            and visited.day >= ${from})`,
    })
    .from(leaders)
    .innerJoin(poems, eq(poems.slug, sql`substr(${leaders.path}, ${POEM_PATH_PREFIX.length + 1})`))
    .where(isLive(poems))
    .orderBy(desc(leaders.views), poems.slug)
    .limit(TOP_POEMS);
}

/** The sources that brought the most visitors in the window. */
function topSources(db: Database, inWindow: SQL) {
  const sourceTotal = sql<number>`sum(${dailyCounts.count})`;
  return db
    .select({ source: dailyCounts.subject, visitors: sourceTotal })
    .from(dailyCounts)
    .where(and(eq(dailyCounts.metric, METRICS.source), inWindow))
    .groupBy(dailyCounts.subject)
    .orderBy(desc(sourceTotal), dailyCounts.subject)
    .limit(TOP_SOURCES);
}

/** The site's report: its days, poems, sources, subscribers, followers and digests. */
export function siteSummary(
  deps: ServiceDeps,
  flush: () => Promise<void>,
  overTime: ReturnType<typeof createInsightsOverTime>,
) {
  const { db, config } = deps;
  const { windowOf, everyDay, subscribersOverTime, followersOverTime, digestRuns } = overTime;
  return {
    /** The site over the last `days` days (GET /api/admin/insights). */
    async summary(_admin: AdminActor, days: number): Promise<InsightsSummary> {
      await flush();
      const { from, to, fromInstant } = windowOf(days);
      const inWindow = gte(dailyCounts.day, from);
      const dailyRead = siteDays(db, inWindow);
      const poemsRead = topPoems(db, inWindow, from);
      const sourcesRead = topSources(db, inWindow);
      // Apart from one another: on PostgreSQL they go out on the pool's connections at once.
      const [dailyRows, poemRows, sourceRows, subscribers, followers, digest] = await Promise.all([
        dailyRead,
        poemsRead,
        sourcesRead,
        subscribersOverTime(from, to),
        config.fediverse.enabled ? followersOverTime(from, to) : undefined,
        digestRuns(fromInstant),
      ]);
      const daily = everyDay(from, to).map((date) => ({
        date,
        visitors:
          dailyRows.find((row) => row.day === date && row.metric === METRICS.visitors)?.count ?? 0,
        views:
          dailyRows.find((row) => row.day === date && row.metric === METRICS.views)?.count ?? 0,
      }));
      return {
        days,
        totals: {
          visitors: daily.reduce((sum, day) => sum + day.visitors, 0),
          views: daily.reduce((sum, day) => sum + day.views, 0),
        },
        daily,
        poems: poemRows.map((row) => ({
          slug: row.slug,
          title: row.title,
          views: toInt(row.views),
          visitors: toInt(row.visitors),
        })),
        sources: sourceRows.map((row) => ({
          source: row.source,
          group: groupOf(row.source),
          visitors: toInt(row.visitors),
        })),
        subscribers,
        ...(followers ? { followers } : {}),
        digest,
      };
    },
  };
}
