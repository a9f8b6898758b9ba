import { createHmac, randomBytes } from "node:crypto";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  dailyCounts,
  dayAddresses,
  dayVisitors,
  digestClicks,
  fediverseFollowers,
  remoteActors,
  visitSalts,
} from "../db/schema.ts";
import { addressKeyOf } from "../insights/address.ts";
import { cleanName, type Source, sourceOf } from "../insights/sources.ts";
import { createBackgroundLoop } from "./background-loop.ts";
import type { ServiceDeps } from "./deps.ts";

/**
 * Counting without tracking (docs/decisions/049-counting-without-tracking.md, hardened by
 * 055-a-visit-per-page-and-a-crowd-per-address.md; docs/product/insights.md). A reader's request
 * costs a few map updates here: whether its address is within a household's visitors and a
 * reader's pace, and the view and its visitor put aside. Everything else waits for the batch,
 * every FLUSH_INTERVAL_MS and on a graceful stop: the hashes are made and the rows written in
 * slices, yielding to the event loop between them, so a cached page never waits behind a batch
 * (on the embedded database the batch runs in this very process).
 */

/** How often counts reach the database: a SIGKILL loses at most this much. */
export const FLUSH_INTERVAL_MS = 10_000;
/** Visitors one address brings in a day: a household or an office, not a crowd. */
export const VISITORS_PER_ADDRESS = 5;
/** Views one address may add in an hour of the clock: several readers' pace, not a script's. */
export const VIEWS_PER_ADDRESS_HOUR = 60;
/**
 * How often the servers of the site's fediverse followers are read again, so a referrer from
 * one counts as the fediverse without a query per page view.
 */
export const FOLLOWER_HOSTS_REFRESH_MS = 5 * 60_000;
/** Visitors waiting in memory before a batch is written early. */
const PENDING_VISITORS_MAX = 50_000;
/**
 * While the database is away, batches fail and wait in memory: past this many visitors, new
 * ones are no longer told apart (their views still count), so memory stays bounded.
 */
const PENDING_VISITORS_HELD_MAX = 4 * PENDING_VISITORS_MAX;
/** Addresses remembered today on this instance; past it, those already written are forgotten. */
const ADDRESSES_REMEMBERED = 100_000;
/** Hashes this instance knows it wrote today, so they are not sent again; a bound, not a rule. */
const WRITTEN_HASHES_MAX = 200_000;
/** Hashes made, or rows written in one statement, between two yields to the event loop. */
const SLICE = 250;
/** Batches a reading waits for its visit's row (another instance may still hold it). */
const READING_TRIES = 3;
const HOUR_MS = 3_600_000;

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
  /** Share, copy-link and save-image presses, once a stanza a visit (subject: slug, part). */
  shares: "shares",
  /** Visits through a stanza's share link (subject: slug, part: index). */
  shareVisits: "share-visits",
  /** `preview:{platform}`: a platform's bot fetched the stanza's share card. */
  previewPrefix: "preview:",
} as const;

const SOURCE_SCOPE = "source:";
const CLICK_SCOPE = "click:";
const DIRECT: Source = { group: "direct", id: "direct" };
const DIRECT_SCOPE = `${SOURCE_SCOPE}${DIRECT.id}`;
const SHARE_PATH = /^\/share\/poem\/([^/]+)$/;
/** The pages a reading's visit may be on: the poem's own and its share page. */
const visitPathsOf = (slug: string) => [`/poetry/${slug}`, `/share/poem/${slug}`];

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

/** One address today on this instance: the address itself stays in memory only, until the day ends. */
interface AddressToday {
  agents: Set<string>;
  /** Every instance's visitors from it reached VISITORS_PER_ADDRESS (the day's row says). */
  full: boolean;
  hour: number;
  views: number;
  /** Not yet written to its row. */
  newVisitors: number;
  newViews: number;
}

interface PendingReading {
  day: string;
  identity: string;
  poem: string;
  reached: Set<number> | undefined;
  shared: Set<number>;
  tries: number;
}

/** What one batch writes: taken whole from memory, put back whole when the batch fails. */
interface Pending {
  counts: Map<string, number>;
  /** Views per day, apart from `counts` so a view builds no key. */
  views: Map<string, { site: number; paths: Map<string, number> }>;
  /** day → scope → identity (or a click's address), until the batch hashes them. */
  visitors: Map<string, Map<string, Set<string>>>;
  visitorCount: number;
  readings: Map<string, PendingReading>;
  clickTargets: Map<string, { runId: number; link: number; url: string }>;
}

const emptyPending = (): Pending => ({
  counts: new Map(),
  views: new Map(),
  visitors: new Map(),
  visitorCount: 0,
  readings: new Map(),
  clickTargets: new Map(),
});

export const countKey = (day: string, metric: string, subject: string, part: string) =>
  `${day}\u0000${metric}\u0000${subject}\u0000${part}`;

/** Lets the event loop answer the requests waiting behind a slice of the batch. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export function createCounting(deps: ServiceDeps & { secret: string }) {
  const { db, config, logger, now, secret } = deps;
  const siteHost = config.publicUrl.host.toLowerCase();
  const dayFormat = new Intl.DateTimeFormat("en-CA", {
    timeZone: config.siteTimezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  // Day boundaries fall on whole minutes in every time zone: one formatting a minute.
  let lastMinute = Number.NaN;
  let lastDay = "";
  let hour = 0;
  /** Today in the site's time zone, 'YYYY-MM-DD', on the services' clock. */
  function today(): string {
    const ms = now().getTime();
    const minute = Math.floor(ms / 60_000);
    if (minute !== lastMinute) {
      lastMinute = minute;
      lastDay = dayFormat.format(new Date(ms));
      hour = Math.floor(ms / HOUR_MS);
    }
    return lastDay;
  }

  let pending = emptyPending();
  let addressesDay = "";
  const addresses = new Map<string, AddressToday>();
  const dayKeys = new Map<string, Buffer>();
  const writtenHashes = new Map<string, Set<string>>();

  function add(day: string, metric: string, subject: string, part: string, n = 1) {
    const k = countKey(day, metric, subject, part);
    pending.counts.set(k, (pending.counts.get(k) ?? 0) + n);
  }

  function addVisitor(day: string, scope: string, identity: string) {
    let scopes = pending.visitors.get(day);
    if (!scopes) {
      scopes = new Map();
      pending.visitors.set(day, scopes);
    }
    let identities = scopes.get(scope);
    if (!identities) {
      identities = new Set();
      scopes.set(scope, identities);
    }
    if (identities.has(identity) || pending.visitorCount >= PENDING_VISITORS_HELD_MAX) return;
    identities.add(identity);
    pending.visitorCount += 1;
    if (pending.visitorCount === PENDING_VISITORS_MAX) loop.wake();
  }

  function addressToday(day: string, address: string): AddressToday {
    if (addressesDay !== day) {
      addresses.clear();
      addressesDay = day;
    }
    let known = addresses.get(address);
    if (!known) {
      if (addresses.size >= ADDRESSES_REMEMBERED) {
        for (const [key, state] of addresses) {
          if (state.newVisitors === 0 && state.newViews === 0) addresses.delete(key);
        }
        if (addresses.size >= ADDRESSES_REMEMBERED) addresses.clear();
      }
      known = { agents: new Set(), full: false, hour, views: 0, newVisitors: 0, newViews: 0 };
      addresses.set(address, known);
    }
    if (known.hour !== hour) {
      known.hour = hour;
      known.views = 0;
    }
    return known;
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

  /**
   * The day's key: the day's salt (one row every instance shares) and the site's secret
   * together, so a copy of the database alone cannot test a guessed address (decision 055).
   */
  async function dayKeyFor(day: string): Promise<Buffer> {
    const known = dayKeys.get(day);
    if (known) return known;
    await db
      .insert(visitSalts)
      .values({ day, salt: randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await db.select().from(visitSalts).where(eq(visitSalts.day, day));
    if (!row) throw new Error(`no salt for ${day}`);
    const key = createHmac("sha256", secret).update(`day-visitors\u0000${day}\u0000${row.salt}`);
    const derived = key.digest();
    dayKeys.set(day, derived);
    return derived;
  }

  /** One set's hash: its scope is in it, so one reader's hashes in two sets share nothing. */
  const hashOf = (key: Buffer, scope: string, identity: string) =>
    createHmac("sha256", key).update(`${scope}\u0000${identity}`).digest("base64url").slice(0, 27);

  function putBack(taken: Pending, takenAddresses: AddressRow[]) {
    for (const [k, n] of taken.counts) pending.counts.set(k, (pending.counts.get(k) ?? 0) + n);
    for (const [day, views] of taken.views) {
      const tally = viewsOf(day);
      tally.site += views.site;
      for (const [path, n] of views.paths) tally.paths.set(path, (tally.paths.get(path) ?? 0) + n);
    }
    for (const [day, scopes] of taken.visitors) {
      for (const [scope, identities] of scopes) {
        for (const identity of identities) addVisitor(day, scope, identity);
      }
    }
    for (const [k, reading] of taken.readings)
      if (!pending.readings.has(k)) pending.readings.set(k, reading);
    for (const [scope, target] of taken.clickTargets) pending.clickTargets.set(scope, target);
    for (const row of takenAddresses) {
      row.state.newVisitors += row.visitors;
      row.state.newViews += row.views;
    }
  }

  function viewsOf(day: string) {
    let tally = pending.views.get(day);
    if (!tally) {
      tally = { site: 0, paths: new Map() };
      pending.views.set(day, tally);
    }
    return tally;
  }

  interface AddressRow {
    day: string;
    hash: string;
    visitors: number;
    hour: number;
    views: number;
    state: AddressToday;
  }

  /** The addresses with something new, their new numbers taken (a failed batch puts them back). */
  async function takeAddresses(): Promise<AddressRow[]> {
    const rows: AddressRow[] = [];
    if (!addressesDay) return rows;
    const key = await dayKeyFor(addressesDay);
    for (const [address, state] of addresses) {
      if (state.newVisitors === 0 && state.newViews === 0) continue;
      rows.push({
        day: addressesDay,
        hash: hashOf(key, "address", address),
        visitors: state.newVisitors,
        hour: state.hour,
        views: state.newViews,
        state,
      });
      state.newVisitors = 0;
      state.newViews = 0;
      if (rows.length % SLICE === 0) await breathe();
    }
    return rows.sort((a, b) => (a.hash < b.hash ? -1 : 1));
  }

  interface VisitorRow {
    day: string;
    scope: string;
    hash: string;
    order: string;
  }

  async function hashVisitors(taken: Pending): Promise<VisitorRow[]> {
    const rows: VisitorRow[] = [];
    for (const [day, scopes] of taken.visitors) {
      const key = await dayKeyFor(day);
      const written = writtenHashes.get(day);
      for (const [scope, identities] of scopes) {
        for (const identity of identities) {
          const hash = hashOf(key, scope, identity);
          if (!written?.has(`${scope}\u0000${hash}`)) {
            rows.push({ day, scope, hash, order: `${day}\u0000${scope}\u0000${hash}` });
          }
          if (rows.length % SLICE === 0) await breathe();
        }
      }
    }
    // One order for every instance's rows, so two batches never wait on each other in a cycle.
    return rows.sort((a, b) => (a.order < b.order ? -1 : 1));
  }

  /** Inserts the new visitor hashes; only those no instance wrote before count. */
  async function writeVisitors(tx: Transaction, rows: VisitorRow[], taken: Pending) {
    const inserted: Array<{ day: string; scope: string; hash: string }> = [];
    for (let start = 0; start < rows.length; start += SLICE) {
      const slice = rows.slice(start, start + SLICE).map(({ day, scope, hash }) => ({
        day,
        scope,
        hash,
      }));
      inserted.push(
        ...(await tx
          .insert(dayVisitors)
          .values(slice)
          .onConflictDoNothing()
          .returning({ day: dayVisitors.day, scope: dayVisitors.scope, hash: dayVisitors.hash })),
      );
      await breathe();
    }
    const clicks = new Map<string, number>();
    for (const row of inserted) {
      if (row.scope.startsWith(CLICK_SCOPE)) {
        clicks.set(row.scope, (clicks.get(row.scope) ?? 0) + 1);
      } else if (row.scope.startsWith(SOURCE_SCOPE)) {
        addTo(taken, row.day, METRICS.source, row.scope.slice(SOURCE_SCOPE.length));
      } else {
        addTo(taken, row.day, METRICS.visitors, row.scope);
      }
    }
    for (const [scope, n] of [...clicks].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const target = taken.clickTargets.get(scope);
      if (!target) continue;
      await tx
        .insert(digestClicks)
        .values({ ...target, clicks: n })
        .onConflictDoUpdate({
          target: [digestClicks.runId, digestClicks.link],
          set: { clicks: sql`${digestClicks.clicks} + excluded.clicks` },
        });
    }
    return inserted;
  }

  const addTo = (taken: Pending, day: string, metric: string, subject: string, part = "") => {
    const k = countKey(day, metric, subject, part);
    taken.counts.set(k, (taken.counts.get(k) ?? 0) + 1);
  };

  /** Adds this batch's numbers to each address's row and learns every instance's totals. */
  async function writeAddresses(tx: Transaction, rows: AddressRow[]) {
    const totals: Array<{ hash: string; visitors: number; hour: number; views: number }> = [];
    for (let start = 0; start < rows.length; start += SLICE) {
      const slice = rows
        .slice(start, start + SLICE)
        .map(({ day, hash, visitors, hour: at, views }) => ({
          day,
          hash,
          visitors,
          hour: at,
          views,
        }));
      totals.push(
        ...(await tx
          .insert(dayAddresses)
          .values(slice)
          .onConflictDoUpdate({
            target: [dayAddresses.day, dayAddresses.hash],
            set: {
              visitors: sql`${dayAddresses.visitors} + excluded.visitors`,
              views: sql`case when excluded.hour > ${dayAddresses.hour} then excluded.views
                when excluded.hour = ${dayAddresses.hour} then ${dayAddresses.views} + excluded.views
                else ${dayAddresses.views} end`,
              hour: sql`greatest(${dayAddresses.hour}, excluded.hour)`,
            },
          })
          .returning({
            hash: dayAddresses.hash,
            visitors: dayAddresses.visitors,
            hour: dayAddresses.hour,
            views: dayAddresses.views,
          })),
      );
      await breathe();
    }
    return () => {
      const byHash = new Map(rows.map((row) => [row.hash, row.state]));
      for (const total of totals) {
        const state = byHash.get(total.hash);
        if (!state) continue;
        if (total.visitors >= VISITORS_PER_ADDRESS) state.full = true;
        if (total.hour === state.hour) {
          state.views = Math.max(state.views, total.views + state.newViews);
        }
      }
    };
  }

  /**
   * Each reading joins its visit's row (the poem's page, or its share page, seen by this visitor
   * today): the first one that reports reaching counts a reading, and each report counts only
   * the stanzas that visit had not reached (or shared) before, so `reached` never passes the
   * visits. A reading whose visit has no row yet waits a few batches, then is dropped.
   */
  async function writeReadings(tx: Transaction, taken: Pending) {
    if (taken.readings.size === 0) return;
    const wanted = new Map<string, { reading: PendingReading; scope: string }>();
    for (const reading of taken.readings.values()) {
      const key = await dayKeyFor(reading.day);
      for (const scope of visitPathsOf(reading.poem)) {
        wanted.set(`${reading.day}\u0000${hashOf(key, scope, reading.identity)}`, {
          reading,
          scope,
        });
      }
    }
    const rows: Array<typeof dayVisitors.$inferSelect> = [];
    for (const day of new Set([...taken.readings.values()].map((reading) => reading.day))) {
      const keys = [...wanted].filter(([k]) => k.startsWith(`${day}\u0000`));
      // By the primary key (day, scope, hash), in its order, so two batches lock in one order.
      rows.push(
        ...(await tx
          .select()
          .from(dayVisitors)
          .where(
            and(
              eq(dayVisitors.day, day),
              inArray(dayVisitors.scope, [...new Set(keys.map(([, match]) => match.scope))]),
              inArray(
                dayVisitors.hash,
                keys.map(([k]) => k.slice(day.length + 1)),
              ),
            ),
          )
          .orderBy(dayVisitors.scope, dayVisitors.hash)
          .for("update")),
      );
    }
    const found = new Map<PendingReading, (typeof rows)[number]>();
    for (const row of rows) {
      const match = wanted.get(`${row.day}\u0000${row.hash}`);
      if (!match || match.scope !== row.scope) continue;
      // The poem's own page before its share page, when the visitor saw both.
      if (!found.has(match.reading) || row.scope.startsWith("/poetry/")) {
        found.set(match.reading, row);
      }
    }
    for (const reading of taken.readings.values()) {
      const row = found.get(reading);
      if (!row) {
        reading.tries += 1;
        if (reading.tries < READING_TRIES) laterReadings.push(reading);
        continue;
      }
      let reached = row.reached;
      if (reading.reached) {
        if (reached === null) {
          addTo(taken, reading.day, METRICS.readings, reading.poem);
          reached = [];
        }
        for (const index of reading.reached) {
          if (reached.includes(index)) continue;
          reached = [...reached, index];
          addTo(taken, reading.day, METRICS.reached, reading.poem, String(index));
        }
      }
      let shared = row.shared ?? [];
      for (const index of reading.shared) {
        if (shared.includes(index)) continue;
        shared = [...shared, index];
        addTo(taken, reading.day, METRICS.shares, reading.poem, String(index));
      }
      if (reached === row.reached && shared.length === (row.shared ?? []).length) continue;
      await tx
        .update(dayVisitors)
        .set({ reached, shared })
        .where(
          and(
            eq(dayVisitors.day, row.day),
            eq(dayVisitors.scope, row.scope),
            eq(dayVisitors.hash, row.hash),
          ),
        );
    }
  }
  /** Readings still waiting for their visit's row, for the next batch. */
  let laterReadings: PendingReading[] = [];

  async function writeCounts(tx: Transaction, taken: Pending) {
    for (const [day, views] of taken.views) {
      const k = countKey(day, METRICS.views, "", "");
      taken.counts.set(k, (taken.counts.get(k) ?? 0) + views.site);
      for (const [path, n] of views.paths) {
        const pathKey = countKey(day, METRICS.views, path, "");
        taken.counts.set(pathKey, (taken.counts.get(pathKey) ?? 0) + n);
      }
    }
    const rows = [...taken.counts]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, count]) => {
        const [day = "", metric = "", subject = "", part = ""] = k.split("\u0000");
        return { day, metric, subject, part, count };
      });
    for (let start = 0; start < rows.length; start += SLICE) {
      await tx
        .insert(dailyCounts)
        .values(rows.slice(start, start + SLICE))
        .onConflictDoUpdate({
          target: [dailyCounts.metric, dailyCounts.day, dailyCounts.subject, dailyCounts.part],
          set: { count: sql`${dailyCounts.count} + excluded.count` },
        });
      await breathe();
    }
  }

  /** Writes what memory holds; on failure it stays in memory for the next batch. */
  async function writeBatch(): Promise<void> {
    const taken = pending;
    pending = emptyPending();
    for (const reading of laterReadings) {
      taken.readings.set(`${reading.day}\u0000${reading.identity}\u0000${reading.poem}`, reading);
    }
    laterReadings = [];
    let takenAddresses: AddressRow[] = [];
    let inserted: Array<{ day: string; scope: string; hash: string }> = [];
    try {
      takenAddresses = await takeAddresses();
      const nothing =
        taken.views.size === 0 && taken.counts.size === 0 && taken.visitors.size === 0;
      if (nothing && taken.readings.size === 0 && takenAddresses.length === 0) return;
      const visitorRows = await hashVisitors(taken);
      let learn = () => {};
      await db.transaction(async (tx) => {
        inserted = await writeVisitors(tx, visitorRows, taken);
        learn = await writeAddresses(tx, takenAddresses);
        await writeReadings(tx, taken);
        await writeCounts(tx, taken);
      });
      learn();
    } catch (error) {
      laterReadings = [];
      putBack(taken, takenAddresses);
      throw error;
    }
    for (const row of inserted) {
      let written = writtenHashes.get(row.day);
      if (!written) {
        written = new Set();
        writtenHashes.set(row.day, written);
      }
      if (written.size >= WRITTEN_HASHES_MAX) written.clear();
      written.add(`${row.scope}\u0000${row.hash}`);
    }
  }

  /** Yesterday's salt, hashes and addresses go, here and in the database, once today has begun. */
  async function forgetEndedDays(): Promise<void> {
    const day = today();
    await db.delete(visitSalts).where(lt(visitSalts.day, day));
    await db.delete(dayVisitors).where(lt(dayVisitors.day, day));
    await db.delete(dayAddresses).where(lt(dayAddresses.day, day));
    for (const known of [...dayKeys.keys()]) if (known < day) dayKeys.delete(known);
    for (const known of [...writtenHashes.keys()]) if (known < day) writtenHashes.delete(known);
    if (addressesDay && addressesDay < day) {
      addresses.clear();
      addressesDay = "";
    }
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

  /** Sources by referrer: readers arriving from one place repeat, and a URL parse is not free. */
  const sourcesByReferrer = new Map<string, Source | undefined>();

  return {
    today,
    flush,
    refreshFollowerHosts,
    start: () => loop.start(),
    stop: () => loop.stop(),

    /**
     * A page a person asked for, answered 200 (server/http/page-views.ts decides): counted
     * unless its address has brought a household's visitors today and this is another, or has
     * gone past a reader's pace this hour (docs/product/limits.md).
     */
    recordPageView(view: PageView): void {
      const day = today();
      const address = addressKeyOf(view.address);
      const state = addressToday(day, address);
      if (state.views >= VIEWS_PER_ADDRESS_HOUR) return;
      if (!state.agents.has(view.userAgent)) {
        if (state.full || state.agents.size >= VISITORS_PER_ADDRESS) return;
        state.agents.add(view.userAgent);
        state.newVisitors += 1;
      }
      state.views += 1;
      state.newViews += 1;
      const tally = viewsOf(day);
      tally.site += 1;
      tally.paths.set(view.path, (tally.paths.get(view.path) ?? 0) + 1);
      const identity = `${address}\n${view.userAgent}`;
      addVisitor(day, "", identity);
      addVisitor(day, view.path, identity);
      // Most views carry neither a query nor another site's address: no parsing for those.
      const search = view.query ? new URLSearchParams(view.query) : undefined;
      let source: Source | undefined = DIRECT;
      if (search) {
        source = sourceOf(view.referrer, search.get("utm_source"), siteHost, followerHosts);
      } else if (view.referrer) {
        if (!sourcesByReferrer.has(view.referrer)) {
          if (sourcesByReferrer.size >= 1_000) sourcesByReferrer.clear();
          sourcesByReferrer.set(
            view.referrer,
            sourceOf(view.referrer, null, siteHost, followerHosts),
          );
        }
        source = sourcesByReferrer.get(view.referrer);
      }
      if (source) {
        addVisitor(day, source === DIRECT ? DIRECT_SCOPE : `${SOURCE_SCOPE}${source.id}`, identity);
      }
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

    /** A checked reading beacon, put aside for its visit (see writeReadings). */
    recordReading(reading: Reading, address: string, userAgent: string): void {
      const day = today();
      const identity = `${addressKeyOf(address)}\n${userAgent}`;
      const k = `${day}\u0000${identity}\u0000${reading.poem}`;
      let waiting = pending.readings.get(k);
      if (!waiting) {
        waiting = {
          day,
          identity,
          poem: reading.poem,
          reached: undefined,
          shared: new Set(),
          tries: 0,
        };
        pending.readings.set(k, waiting);
      }
      if (reading.reached) {
        waiting.reached ??= new Set();
        for (const index of reading.reached) waiting.reached.add(index);
      }
      if (reading.shared !== undefined) waiting.shared.add(reading.shared);
    },

    /** A digest link followed from an address: one click a day per address, run and link. */
    recordClick(target: { runId: number; link: number; url: string }, address: string): void {
      const scope = `${CLICK_SCOPE}${target.runId}:${target.link}`;
      pending.clickTargets.set(scope, target);
      addVisitor(today(), scope, addressKeyOf(address));
    },
  };
}
