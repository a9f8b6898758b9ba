import { and, count, desc, eq, gte, inArray, isNull, like, or, sql } from "drizzle-orm";
import * as pages from "../../common/pages.ts";
import { prefixOf } from "../../common/path-builder.ts";
import type {
  InsightsSummary,
  PoemInsights,
  StanzaInsight,
} from "../../common/schemas/insights.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import {
  dailyCounts,
  echoes,
  journalEntries,
  mailRuns,
  poemBoosts,
  poems,
  whispers,
} from "../db/schema.ts";
import { isLive, publishedPoems } from "../db/visibility.ts";
import { digestLinkTargets } from "../mail/digest.ts";
import { createCounting, METRICS, type PageView, type Reading } from "./counting.ts";
import { readDigestClickToken } from "./digest-links.ts";
import { createInsightsOverTime } from "./over-time.ts";
import { groupOf } from "./sources.ts";

/**
 * The poet's insights (docs/product/insights.md): what the counting (./insights-counting.ts,
 * docs/decisions/049-counting-without-tracking.md and 055-a-visit-per-page-and-a-crowd-per-
 * address.md) wrote to daily rows, read back for the admin, and the checks a beacon and a digest
 * click pass before they are counted.
 */

/** Poems' stanza counts kept for checking beacons, until content changes. */
const POEMS_REMEMBERED = 5_000;
const TOP_POEMS = 10;
const TOP_SOURCES = 20;
const POEM_PATH_PREFIX = prefixOf(pages.poem);

export type { PageView, Reading };

const toInt = (value: unknown) => Number(value ?? 0);

export function createInsightsService(deps: ServiceDeps & { counting: boolean; secret: string }) {
  const { db, config, now } = deps;
  const _timeZone = config.siteTimezone;
  const counting = createCounting(deps);
  const { today, flush } = counting;

  /** Stanza counts of published poems by slug (null: no such poem), until content changes. */
  const stanzaCounts = new Map<string, Promise<number | null>>();
  function stanzaCountOf(slug: string): Promise<number | null> {
    const known = stanzaCounts.get(slug);
    if (known) return known;
    if (stanzaCounts.size >= POEMS_REMEMBERED) stanzaCounts.clear();
    const found = db
      .select({ stanzas: poems.stanzas })
      .from(poems)
      .where(and(eq(poems.slug, slug), publishedPoems(now())))
      .then(([row]) => (row ? row.stanzas.length : null));
    stanzaCounts.set(slug, found);
    found.catch(() => stanzaCounts.delete(slug));
    return found;
  }

  /** Each run's content, kept once read: a run's links never change. */
  const runContents = new Map<number, Promise<typeof mailRuns.$inferSelect.content | null>>();
  function runContent(runId: number) {
    const known = runContents.get(runId);
    if (known) return known;
    if (runContents.size > 500) runContents.clear();
    const found = db
      .select({ content: mailRuns.content })
      .from(mailRuns)
      .where(eq(mailRuns.id, runId))
      .then(([row]) => row?.content ?? null);
    runContents.set(runId, found);
    found.catch(() => runContents.delete(runId));
    return found;
  }

  const { windowOf, everyDay, subscribersOverTime, followersOverTime, digestRuns } =
    createInsightsOverTime(db, config, today);

  return {
    /** Whether this instance counts at all (COUNTING). */
    counting: deps.counting,

    /** A page a person asked for, answered 200 (server/http/page-views.ts decides). */
    recordPageView: counting.recordPageView,

    /** A platform's bot fetched a stanza's share card. */
    recordPreview: counting.recordPreview,

    /**
     * A reading beacon from a reader (their address and user agent, held until the next batch):
     * "unknown" (nothing counted) for no such published poem, "invalid" for an index beyond it,
     * else put aside for the visit it belongs to, which decides what it adds (decision 055).
     */
    async recordReading(
      reading: Reading,
      address: string,
      userAgent: string,
    ): Promise<"counted" | "unknown" | "invalid"> {
      const stanzas = await stanzaCountOf(reading.poem);
      if (stanzas === null) return "unknown";
      const indices = [
        ...(reading.reached ?? []),
        ...(reading.shared === undefined ? [] : [reading.shared]),
      ];
      if (indices.some((index) => index >= stanzas)) return "invalid";
      counting.recordReading(reading, address, userAgent);
      return "counted";
    },

    /**
     * A digest link followed: answers where it leads, or undefined for a token that names no
     * link of a digest. A click counts once a day per address, run and link, and not at all
     * from a reader who asked not to be counted (`address` undefined).
     */
    async followDigestLink(
      secret: string,
      token: string,
      address: string | undefined,
    ): Promise<string | undefined> {
      const named = readDigestClickToken(secret, token);
      if (!named) return undefined;
      const content = await runContent(named.runId);
      if (!content) return undefined;
      const target = digestLinkTargets(content, config.publicUrl.toString())[named.link];
      if (!target) return undefined;
      if (address !== undefined) counting.recordClick({ ...named, url: target }, address);
      const url = new URL(target);
      url.searchParams.set("utm_source", "digest");
      return url.toString();
    },

    /** Reads the followers' servers now (a follow or an unfollow; tests). */
    refreshFollowerHosts: counting.refreshFollowerHosts,

    contentChanged(): void {
      stanzaCounts.clear();
    },

    flush,
    start: counting.start,
    /** Stops the batches and writes what memory still holds (a graceful stop). */
    async stop(): Promise<void> {
      await counting.stop();
      await flush().catch((error: unknown) =>
        deps.logger.error({ err: error }, "the last counts could not be written"),
      );
    },

    /** The site over the last `days` days (GET /api/admin/insights). */
    async summary(_admin: AdminActor, days: number): Promise<InsightsSummary> {
      await flush();
      const { from, to, fromInstant } = windowOf(days);
      const inWindow = gte(dailyCounts.day, from);
      const dailyRead = db
        .select({ day: dailyCounts.day, metric: dailyCounts.metric, count: dailyCounts.count })
        .from(dailyCounts)
        .where(
          and(
            inArray(dailyCounts.metric, [METRICS.views, METRICS.visitors]),
            inWindow,
            eq(dailyCounts.subject, ""),
          ),
        );
      // The window's counts per path first, then only the leaders looked up among the poems
      // (a slug's own index): a deleted poem's path may lead, so a few more than shown are read.
      // The window's views per path first, then only the leaders looked up among the poems (a
      // slug's own index) and given their visitors: a deleted poem's path may lead, so a few more
      // than shown are read.
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
      const poemsRead = db
        .select({
          slug: poems.slug,
          title: poems.title,
          views: leaders.views,
          visitors: sql<number>`(select sum(visited.count) from ${dailyCounts} as visited
            where visited.metric = ${METRICS.visitors} and visited.subject = ${leaders.path}
            and visited.day >= ${from})`,
        })
        .from(leaders)
        .innerJoin(
          poems,
          eq(poems.slug, sql`substr(${leaders.path}, ${POEM_PATH_PREFIX.length + 1})`),
        )
        .where(isLive(poems))
        .orderBy(desc(leaders.views), poems.slug)
        .limit(TOP_POEMS);
      const sourceTotal = sql<number>`sum(${dailyCounts.count})`;
      const sourcesRead = db
        .select({ source: dailyCounts.subject, visitors: sourceTotal })
        .from(dailyCounts)
        .where(and(eq(dailyCounts.metric, METRICS.source), inWindow))
        .groupBy(dailyCounts.subject)
        .orderBy(desc(sourceTotal), dailyCounts.subject)
        .limit(TOP_SOURCES);
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

    /** One poem over the last `days` days (GET /api/admin/insights/poems/{slug}). */
    async poem(_admin: AdminActor, slug: string, days: number): Promise<PoemInsights> {
      await flush();
      const [poem] = await db
        .select({ id: poems.id, slug: poems.slug, title: poems.title, stanzas: poems.stanzas })
        .from(poems)
        .where(and(eq(poems.slug, slug), isLive(poems)));
      if (!poem) throw notFound("Poem not found");
      const { from, fromInstant } = windowOf(days);
      const path = `${POEM_PATH_PREFIX}${poem.slug}`;
      const total = sql<number>`sum(${dailyCounts.count})`;
      const rows = await db
        .select({
          subject: dailyCounts.subject,
          metric: dailyCounts.metric,
          part: dailyCounts.part,
          total,
        })
        .from(dailyCounts)
        .where(
          and(
            or(eq(dailyCounts.subject, poem.slug), eq(dailyCounts.subject, path)),
            gte(dailyCounts.day, from),
          ),
        )
        .groupBy(dailyCounts.subject, dailyCounts.metric, dailyCounts.part);
      const countOf = (subject: string, metric: string, part = "") =>
        toInt(
          rows.find((row) => row.subject === subject && row.metric === metric && row.part === part)
            ?.total,
        );
      /** Per stanza key: every one, and those from the fediverse (`remote`, when it says). */
      const perStanza = async (
        table: typeof echoes | typeof journalEntries | typeof whispers,
        remote?: typeof echoes.remoteActivityId | typeof whispers.remoteNoteId,
      ) => {
        const found = await db
          .select({
            index: table.stanzaIndex,
            count: sql<number>`count(*)`,
            remote: remote ? sql<number>`count(${remote})` : sql<number>`0`,
          })
          .from(table)
          .where(
            and(
              eq(table.poemId, poem.id),
              isNull(table.removedWithVersionId),
              gte(table.createdAt, fromInstant),
            ),
          )
          .groupBy(table.stanzaIndex);
        return {
          all: new Map(found.map((row) => [row.index, toInt(row.count)])),
          remote: new Map(found.map((row) => [row.index, toInt(row.remote)])),
        };
      };
      const [echoed, saved, whispered, [boosted]] = await Promise.all([
        perStanza(echoes, echoes.remoteActivityId),
        perStanza(journalEntries),
        perStanza(whispers, whispers.remoteNoteId),
        db
          .select({ count: count() })
          .from(poemBoosts)
          .where(and(eq(poemBoosts.poemId, poem.id), gte(poemBoosts.createdAt, fromInstant))),
      ]);
      const readings = countOf(poem.slug, METRICS.readings);
      const stanzas: StanzaInsight[] = poem.stanzas.map((text, index) => {
        const part = String(index);
        const previews: Record<string, number> = {};
        for (const row of rows) {
          if (
            row.subject === poem.slug &&
            row.part === part &&
            row.metric.startsWith(METRICS.previewPrefix)
          ) {
            previews[row.metric.slice(METRICS.previewPrefix.length)] = toInt(row.total);
          }
        }
        return {
          index,
          text,
          reached: countOf(poem.slug, METRICS.reached, part),
          echoes: echoed.all.get(part) ?? 0,
          saves: saved.all.get(part) ?? 0,
          whispers: whispered.all.get(part) ?? 0,
          shares:
            countOf(poem.slug, METRICS.shares, part) +
            countOf(poem.slug, METRICS.shareVisits, part),
          previews,
          fediverse: {
            likes: echoed.remote.get(part) ?? 0,
            replies: whispered.remote.get(part) ?? 0,
          },
        };
      });
      const last = stanzas[stanzas.length - 1];
      return {
        slug: poem.slug,
        title: poem.title,
        days,
        views: countOf(path, METRICS.views),
        visitors: countOf(path, METRICS.visitors),
        readings,
        readToEnd: readings > 0 && last ? Math.min(1, last.reached / readings) : 0,
        fediverse: {
          likes: echoed.remote.get("") ?? 0,
          boosts: boosted?.count ?? 0,
          replies: stanzas.reduce((sum, stanza) => sum + stanza.fediverse.replies, 0),
        },
        stanzas,
      };
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
