import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, gte, inArray, isNull, like, lt, or, sql } from "drizzle-orm";
import { instantInZone } from "../../common/dates.ts";
import type {
  InsightsSummary,
  PoemInsights,
  StanzaInsight,
} from "../../common/schemas/insights.ts";
import {
  dailyCounts,
  dayVisitors,
  digestClicks,
  echoes,
  fediverseFollowers,
  journalEntries,
  mailRuns,
  poemBoosts,
  poems,
  remoteActors,
  subscriptions,
  visitSalts,
  whispers,
} from "../db/schema.ts";
import { isLive, publishedPoems } from "../db/visibility.ts";
import { readDigestClickToken } from "../insights/digest-links.ts";
import { cleanName, groupOf, type Source, sourceOf } from "../insights/sources.ts";
import { digestLinkTargets } from "../mail/digest.ts";
import type { AdminActor } from "./actor.ts";
import { createBackgroundLoop } from "./background-loop.ts";
import type { ServiceDeps } from "./deps.ts";
import { notFound } from "./errors.ts";

/**
 * Counting without tracking (docs/decisions/049-counting-without-tracking.md, docs/product/
 * insights.md). Page views, readings and share-card fetches are added up in memory here and
 * written to daily rows in batches (`count = count + excluded.count`) at most every
 * FLUSH_INTERVAL_MS and on a graceful stop, so several instances sum and no reader's request
 * waits for the database. A visitor is a hash of (the day's salt, address, user agent, site);
 * the address and user agent stay in memory until the next batch, the hash and the salt in the
 * database until the day is over.
 */

/** How often counts reach the database: a SIGKILL loses at most this much. */
export const FLUSH_INTERVAL_MS = 10_000;
/** Visitors waiting in memory before a batch is written early. */
const PENDING_VISITORS_MAX = 50_000;
/**
 * While the database is away, batches fail and wait in memory: past this many visitors, new
 * ones are no longer told apart (their views still count), so memory stays bounded.
 */
const PENDING_VISITORS_HELD_MAX = 4 * PENDING_VISITORS_MAX;
/** Hashes this instance knows it wrote today, so they are not sent again; a bound, not a rule. */
const WRITTEN_HASHES_MAX = 200_000;
/** Rows per INSERT: five parameters each, well within PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 1_000;
/** Poems' stanza counts kept for checking beacons, until content changes. */
const POEMS_REMEMBERED = 5_000;
const TOP_POEMS = 10;
const TOP_SOURCES = 20;
const DAY_MS = 86_400_000;
/**
 * How often the servers of the site's fediverse followers are read again, so a referrer from
 * one counts as the fediverse without a query per page view.
 */
export const FOLLOWER_HOSTS_REFRESH_MS = 5 * 60_000;

/** What daily_counts' `metric` holds. */
export const METRICS = {
  views: "views",
  visitors: "visitors",
  /** Visitors per source (subject: the source id). */
  source: "source",
  /** Visits whose reading the stanza viewer reported (subject: slug). */
  readings: "readings",
  /** Visits in which a stanza was on screen ≥ 2 s (subject: slug, part: index). */
  reached: "reached",
  /** Share, copy-link and save-image presses (subject: slug, part: index). */
  shares: "shares",
  /** Visits through a stanza's share link (subject: slug, part: index). */
  shareVisits: "share-visits",
  /** `preview:{platform}`: a platform's bot fetched the stanza's share card. */
  previewPrefix: "preview:",
} as const;

const SOURCE_SCOPE = "source:";
const DIRECT: Source = { group: "direct", id: "direct" };
const DIRECT_SCOPE = `${SOURCE_SCOPE}${DIRECT.id}`;
const SHARE_PATH = /^\/share\/poem\/([^/]+)$/;
const POEM_PATH_PREFIX = "/poetry/";

export interface PageView {
  path: string;
  /** The query without its `?`: read for `utm_source` and a share link's `s`, never kept. */
  query: string;
  address: string;
  userAgent: string;
  referrer: string | undefined;
}

/** What a reading beacon carries, already within its shape (server/api/insights.ts). */
export interface Reading {
  poem: string;
  /** Stanza indices on screen for ≥ 2 s in one visit; absent for a share press alone. */
  reached?: number[];
  /** The stanza whose share, copy-link or save-image button was pressed. */
  shared?: number;
}

const key = (day: string, metric: string, subject: string, part: string) =>
  `${day}\u0000${metric}\u0000${subject}\u0000${part}`;

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const toInt = (value: unknown) => Number(value ?? 0);

export function createInsightsService(deps: ServiceDeps & { counting: boolean }) {
  const { db, config, logger, now } = deps;
  const timeZone = config.siteTimezone;
  const site = config.publicUrl.origin;
  const siteHost = config.publicUrl.host.toLowerCase();

  const dayFormat = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  // Day boundaries fall on whole minutes in every time zone: one formatting a minute.
  let lastMinute = Number.NaN;
  let lastDay = "";
  /** Today in the site's time zone, 'YYYY-MM-DD', on the services' clock. */
  function today(): string {
    const ms = now().getTime();
    const minute = Math.floor(ms / 60_000);
    if (minute !== lastMinute) {
      lastMinute = minute;
      lastDay = dayFormat.format(new Date(ms));
    }
    return lastDay;
  }

  let counts = new Map<string, number>();
  /** Views of the day being counted, kept apart from `counts` so a view builds no key. */
  let tallies = new Map<string, { siteViews: number; pathViews: Map<string, number> }>();
  function tallyOf(day: string) {
    let tally = tallies.get(day);
    if (!tally) {
      tally = { siteViews: 0, pathViews: new Map() };
      tallies.set(day, tally);
    }
    return tally;
  }
  /** day → scope → identities (address and user agent), until the next batch hashes them. */
  let pendingVisitors = new Map<string, Map<string, Set<string>>>();
  let pendingVisitorCount = 0;
  const salts = new Map<string, string>();
  const writtenHashes = new Map<string, Set<string>>();

  function add(day: string, metric: string, subject: string, part: string, n = 1) {
    const k = key(day, metric, subject, part);
    counts.set(k, (counts.get(k) ?? 0) + n);
  }

  function addVisitor(day: string, scope: string, identity: string) {
    let scopes = pendingVisitors.get(day);
    if (!scopes) {
      scopes = new Map();
      pendingVisitors.set(day, scopes);
    }
    let identities = scopes.get(scope);
    if (!identities) {
      identities = new Set();
      scopes.set(scope, identities);
    }
    if (identities.has(identity) || pendingVisitorCount >= PENDING_VISITORS_HELD_MAX) return;
    identities.add(identity);
    pendingVisitorCount += 1;
    if (pendingVisitorCount === PENDING_VISITORS_MAX) loop.wake();
  }

  /** The day's salt: this instance's copy, or the one row every instance shares. */
  async function saltFor(day: string): Promise<string> {
    const known = salts.get(day);
    if (known) return known;
    await db
      .insert(visitSalts)
      .values({ day, salt: randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await db.select().from(visitSalts).where(eq(visitSalts.day, day));
    if (!row) throw new Error(`no salt for ${day}`);
    salts.set(day, row.salt);
    return row.salt;
  }

  const hashOf = (salt: string, identity: string) =>
    createHash("sha256")
      .update(`${salt}\u0000${identity}\u0000${site}`)
      .digest("base64url")
      .slice(0, 27);

  function putBack(
    takenCounts: Map<string, number>,
    takenVisitors: Map<string, Map<string, Set<string>>>,
  ) {
    for (const [k, n] of takenCounts) counts.set(k, (counts.get(k) ?? 0) + n);
    for (const [day, scopes] of takenVisitors) {
      for (const [scope, identities] of scopes) {
        for (const identity of identities) addVisitor(day, scope, identity);
      }
    }
  }

  /** Writes what memory holds; on failure it stays in memory for the next batch. */
  async function writeBatch(): Promise<void> {
    for (const [day, tally] of tallies) {
      add(day, METRICS.views, "", "", tally.siteViews);
      for (const [path, n] of tally.pathViews) add(day, METRICS.views, path, "", n);
    }
    tallies = new Map();
    const takenCounts = counts;
    const takenVisitors = pendingVisitors;
    counts = new Map();
    pendingVisitors = new Map();
    pendingVisitorCount = 0;
    if (takenCounts.size === 0 && takenVisitors.size === 0) return;
    const newlyWritten: Array<[string, string]> = [];
    try {
      const visitorRows: Array<{ day: string; scope: string; hash: string }> = [];
      for (const [day, scopes] of takenVisitors) {
        const salt = await saltFor(day);
        const written = writtenHashes.get(day);
        for (const [scope, identities] of scopes) {
          for (const identity of identities) {
            const hash = hashOf(salt, identity);
            if (written?.has(`${scope}\u0000${hash}`)) continue;
            visitorRows.push({ day, scope, hash });
          }
        }
      }
      // One order for every instance's rows, so two batches never wait on each other in a cycle.
      visitorRows.sort((a, b) =>
        `${a.day}${a.scope}${a.hash}` < `${b.day}${b.scope}${b.hash}` ? -1 : 1,
      );
      await db.transaction(async (tx) => {
        const batchCounts = new Map(takenCounts);
        for (let start = 0; start < visitorRows.length; start += ROWS_PER_STATEMENT) {
          const inserted = await tx
            .insert(dayVisitors)
            .values(visitorRows.slice(start, start + ROWS_PER_STATEMENT))
            .onConflictDoNothing()
            .returning();
          // A hash another instance (or an earlier batch) wrote is a visitor already counted.
          for (const row of inserted) {
            newlyWritten.push([row.day, `${row.scope}\u0000${row.hash}`]);
            const isSource = row.scope.startsWith(SOURCE_SCOPE);
            const k = key(
              row.day,
              isSource ? METRICS.source : METRICS.visitors,
              isSource ? row.scope.slice(SOURCE_SCOPE.length) : row.scope,
              "",
            );
            batchCounts.set(k, (batchCounts.get(k) ?? 0) + 1);
          }
        }
        const rows = [...batchCounts]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, count]) => {
            const [day = "", metric = "", subject = "", part = ""] = k.split("\u0000");
            return { day, metric, subject, part, count };
          });
        for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
          await tx
            .insert(dailyCounts)
            .values(rows.slice(start, start + ROWS_PER_STATEMENT))
            .onConflictDoUpdate({
              target: [dailyCounts.metric, dailyCounts.day, dailyCounts.subject, dailyCounts.part],
              set: { count: sql`${dailyCounts.count} + excluded.count` },
            });
        }
      });
    } catch (error) {
      putBack(takenCounts, takenVisitors);
      throw error;
    }
    for (const [day, entry] of newlyWritten) {
      let written = writtenHashes.get(day);
      if (!written) {
        written = new Set();
        writtenHashes.set(day, written);
      }
      if (written.size >= WRITTEN_HASHES_MAX) written.clear();
      written.add(entry);
    }
  }

  /** Yesterday's salt and visitor hashes go, here and in the database, once today has begun. */
  async function forgetEndedDays(): Promise<void> {
    const day = today();
    await db.delete(visitSalts).where(lt(visitSalts.day, day));
    await db.delete(dayVisitors).where(lt(dayVisitors.day, day));
    for (const known of [...salts.keys()]) if (known < day) salts.delete(known);
    for (const known of [...writtenHashes.keys()]) if (known < day) writtenHashes.delete(known);
  }

  let flushing: Promise<void> | undefined;
  /** One batch at a time; a call during a batch waits for it and then writes its own. */
  async function flush(): Promise<void> {
    while (flushing) await flushing;
    flushing = (async () => {
      await writeBatch();
      await forgetEndedDays();
    })();
    try {
      await flushing;
    } finally {
      flushing = undefined;
    }
  }

  /** The servers of the site's followers, as sources name hosts (no port, no `www.`). */
  let followerHosts: ReadonlySet<string> = new Set();
  let followerHostsReadAt = Number.NEGATIVE_INFINITY;
  async function refreshFollowerHosts(): Promise<void> {
    followerHostsReadAt = now().getTime();
    if (!config.fediverse.enabled) {
      followerHosts = new Set();
      return;
    }
    const rows = await db
      .selectDistinct({ server: remoteActors.server })
      .from(remoteActors)
      .innerJoin(fediverseFollowers, eq(fediverseFollowers.actorId, remoteActors.id));
    const hosts = new Set<string>();
    for (const { server } of rows) {
      const name = cleanName(server.replace(/:\d+$/, ""));
      if (name) hosts.add(name);
    }
    followerHosts = hosts;
  }

  const loop = createBackgroundLoop({
    name: "counting",
    step: async () => {
      await flush();
      if (now().getTime() - followerHostsReadAt >= FOLLOWER_HOSTS_REFRESH_MS) {
        await refreshFollowerHosts();
      }
      return 0;
    },
    pollMs: FLUSH_INTERVAL_MS,
    logger,
  });

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

  /** The window `[from, today]` of `days` days, and the instant it starts. */
  function windowOf(days: number) {
    const to = today();
    const from = addDays(to, -(days - 1));
    return { from, to, fromInstant: instantInZone(from, "00:00", timeZone) };
  }

  function everyDay(from: string, to: string): string[] {
    const list: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) list.push(day);
    return list;
  }

  async function subscribersOverTime(from: string, to: string) {
    const rows = await db
      .select({
        verifiedAt: subscriptions.verifiedAt,
        unsubscribedAt: subscriptions.unsubscribedAt,
      })
      .from(subscriptions)
      .where(eq(subscriptions.verified, true));
    const spans = rows.map((row) => [
      row.verifiedAt?.getTime() ?? 0,
      row.unsubscribedAt?.getTime() ?? Number.POSITIVE_INFINITY,
    ]);
    return everyDay(from, to).map((date) => {
      const end = instantInZone(addDays(date, 1), "00:00", timeZone).getTime();
      let count = 0;
      for (const [since = 0, until = 0] of spans) if (since < end && until >= end) count += 1;
      return { date, count };
    });
  }

  /**
   * Followers at the end of each day: an Undo, a block or a deleted account removes the
   * follower's row, so this counts those who follow today by the day they began (decision 049).
   */
  async function followersOverTime(from: string, to: string) {
    const rows = await db
      .select({ createdAt: fediverseFollowers.createdAt })
      .from(fediverseFollowers);
    const since = rows.map((row) => row.createdAt.getTime());
    return everyDay(from, to).map((date) => {
      const end = instantInZone(addDays(date, 1), "00:00", timeZone).getTime();
      return { date, count: since.filter((time) => time < end).length };
    });
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

  async function digestRuns(fromInstant: Date): Promise<InsightsSummary["digest"]> {
    const runs = await db
      .select({
        id: mailRuns.id,
        subject: mailRuns.subject,
        createdAt: mailRuns.createdAt,
        sentCount: mailRuns.sentCount,
        content: mailRuns.content,
      })
      .from(mailRuns)
      .where(and(gte(mailRuns.createdAt, fromInstant), sql`${mailRuns.status} <> 'skipped'`))
      .orderBy(desc(mailRuns.createdAt));
    if (runs.length === 0) return [];
    const clicks = await db
      .select()
      .from(digestClicks)
      .where(
        inArray(
          digestClicks.runId,
          runs.map((run) => run.id),
        ),
      );
    return runs.map((run) => ({
      runId: run.id,
      subject: run.subject,
      createdAt: run.createdAt,
      sentCount: run.sentCount,
      clicks: digestLinkTargets(run.content, config.publicUrl.toString()).map((url, link) => ({
        url,
        count: clicks.find((click) => click.runId === run.id && click.link === link)?.clicks ?? 0,
      })),
    }));
  }

  return {
    /** Whether this instance counts at all (COUNTING). */
    counting: deps.counting,

    /** A page a person asked for, answered 200 with HTML (server/http/page-views.ts decides). */
    recordPageView(view: PageView): void {
      const day = today();
      const tally = tallyOf(day);
      tally.siteViews += 1;
      tally.pathViews.set(view.path, (tally.pathViews.get(view.path) ?? 0) + 1);
      const identity = `${view.address}\n${view.userAgent}`;
      addVisitor(day, "", identity);
      addVisitor(day, view.path, identity);
      // Most views carry neither a query nor another site's address: no parsing for those.
      const search = view.query ? new URLSearchParams(view.query) : undefined;
      const source =
        view.referrer || search
          ? sourceOf(view.referrer, search?.get("utm_source") ?? null, siteHost, followerHosts)
          : DIRECT;
      if (source)
        addVisitor(day, source === DIRECT ? DIRECT_SCOPE : `${SOURCE_SCOPE}${source.id}`, identity);
      const stanza = search?.get("s");
      const shared = stanza ? SHARE_PATH.exec(view.path) : null;
      if (shared?.[1] && stanza && /^\d{1,4}$/.test(stanza)) {
        add(day, METRICS.shareVisits, decodeURIComponent(shared[1]), String(Number(stanza)));
      }
    },

    /** A platform's bot fetched a stanza's share card. */
    recordPreview(slug: string, index: number, platform: string): void {
      add(today(), `${METRICS.previewPrefix}${platform}`, slug, String(index));
    },

    /**
     * A reading beacon: counted when the poem is published and every index is one of its
     * stanzas; "unknown" (nothing counted) for no such poem, "invalid" for an index beyond it.
     */
    async recordReading(reading: Reading): Promise<"counted" | "unknown" | "invalid"> {
      const count = await stanzaCountOf(reading.poem);
      if (count === null) return "unknown";
      const indices = [
        ...(reading.reached ?? []),
        ...(reading.shared === undefined ? [] : [reading.shared]),
      ];
      if (indices.some((index) => index >= count)) return "invalid";
      const day = today();
      if (reading.reached) {
        add(day, METRICS.readings, reading.poem, "");
        for (const index of new Set(reading.reached)) {
          add(day, METRICS.reached, reading.poem, String(index));
        }
      }
      if (reading.shared !== undefined) {
        add(day, METRICS.shares, reading.poem, String(reading.shared));
      }
      return "counted";
    },

    /**
     * A digest link followed: counts a click for its run and link and answers where it leads,
     * or undefined for a token that names no link of a digest.
     */
    async followDigestLink(secret: string, token: string): Promise<string | undefined> {
      const named = readDigestClickToken(secret, token);
      if (!named) return undefined;
      const content = await runContent(named.runId);
      if (!content) return undefined;
      const target = digestLinkTargets(content, config.publicUrl.toString())[named.link];
      if (!target) return undefined;
      await db
        .insert(digestClicks)
        .values({ runId: named.runId, link: named.link, url: target, clicks: 1 })
        .onConflictDoUpdate({
          target: [digestClicks.runId, digestClicks.link],
          set: { clicks: sql`${digestClicks.clicks} + 1` },
        });
      const url = new URL(target);
      url.searchParams.set("utm_source", "digest");
      return url.toString();
    },

    /** Reads the followers' servers now (a follow or an unfollow; tests). */
    refreshFollowerHosts,

    contentChanged(): void {
      stanzaCounts.clear();
    },

    flush,
    start: () => loop.start(),
    /** Stops the batches and writes what memory still holds (a graceful stop). */
    async stop(): Promise<void> {
      await loop.stop();
      await flush().catch((error: unknown) =>
        logger.error({ err: error }, "the last counts could not be written"),
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
