import { createHmac, hash, randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { dayAddresses, dayVisitors, visitSalts } from "../db/schema.ts";
import { createPeriodicLoop } from "../jobs/loop.ts";
import { addressKeyOf, createAddressBook, type TakenAddress } from "./address.ts";
import {
  breathe,
  CLICK_SCOPE,
  countKey,
  emptyPending,
  METRICS,
  type Pending,
  type PendingReading,
  SLICE,
  SOURCE_SCOPE,
  type VisitorRow,
  visitPathsOf,
  type WantedVisits,
  writeAddresses,
  writeCounts,
  writeReadings,
  writeVisitors,
} from "./day-rows.ts";
import { createSourceReader } from "./source-reader.ts";
import type { Source } from "./sources.ts";

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
/** Visitors waiting in memory before a batch is written early. */
const PENDING_VISITORS_MAX = 50_000;
/**
 * While the database is away, batches fail and wait in memory: past this many visitors, new
 * ones are no longer told apart (their views still count), so memory stays bounded.
 */
const PENDING_VISITORS_HELD_MAX = 4 * PENDING_VISITORS_MAX;
/** Hashes this instance knows it wrote today, so they are not sent again; a bound, not a rule. */
const WRITTEN_HASHES_MAX = 200_000;
const HOUR_MS = 3_600_000;
const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;

const DIRECT: Source = { group: "direct", id: "direct" };
const DIRECT_SCOPE = `${SOURCE_SCOPE}${DIRECT.id}`;
const SHARE_PATH = /^\/share\/poem\/([^/]+)$/;

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
  const { db, config, logger, now, secret } = deps;
  const _siteHost = config.publicUrl.host.toLowerCase();
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
  const addressBook = createAddressBook();
  const sources = createSourceReader(db, config, now);
  const dayKeys = new Map<string, string>();
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

  /**
   * The day's key: the day's salt (one row every instance shares) and the site's secret
   * together, so a copy of the database alone cannot test a guessed address (decision 055).
   */
  async function dayKeyFor(day: string): Promise<string> {
    const known = dayKeys.get(day);
    if (known) return known;
    await db
      .insert(visitSalts)
      .values({ day, salt: randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await db.select().from(visitSalts).where(eq(visitSalts.day, day));
    if (!row) throw new Error(`no salt for ${day}`);
    const derived = createHmac("sha256", secret)
      .update(`day-visitors\u0000${day}\u0000${row.salt}`)
      .digest("base64url");
    dayKeys.set(day, derived);
    return derived;
  }

  /**
   * One set's hash: its scope is in it, so one reader's hashes in two sets share nothing; the
   * secret day key leads, and one call hashes it all (an HMAC object per hash cost ten times as
   * much, decision 055).
   */
  const hashOf = (key: string, scope: string, identity: string) =>
    hash("sha256", `${key}\u0000${scope}\u0000${identity}`, "base64url").slice(0, 27);

  function putBack(taken: Pending) {
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
  }

  function viewsOf(day: string) {
    let tally = pending.views.get(day);
    if (!tally) {
      tally = { site: 0, paths: new Map() };
      pending.views.set(day, tally);
    }
    return tally;
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

  /** Each reading's candidate visits, hashed before the batch's transaction opens. */
  async function hashReadings(taken: Pending): Promise<WantedVisits> {
    const wanted: WantedVisits = new Map();
    for (const reading of taken.readings.values()) {
      const key = await dayKeyFor(reading.day);
      for (const scope of visitPathsOf(reading.poem)) {
        wanted.set(`${reading.day}\u0000${hashOf(key, scope, reading.identity)}`, {
          reading,
          scope,
        });
      }
      if (wanted.size % SLICE === 0) await breathe();
    }
    return wanted;
  }

  /** Readings still waiting for their visit's row, for the next batch. */
  let laterReadings: PendingReading[] = [];

  /** Writes what memory holds; on failure it stays in memory for the next batch. */
  async function writeBatch(): Promise<void> {
    const taken = pending;
    pending = emptyPending();
    for (const reading of laterReadings) {
      taken.readings.set(`${reading.day}\u0000${reading.identity}\u0000${reading.poem}`, reading);
    }
    laterReadings = [];
    let takenAddresses: TakenAddress[] = [];
    let inserted: Array<{ day: string; scope: string; hash: string }> = [];
    try {
      if (addressBook.day) {
        const key = await dayKeyFor(addressBook.day);
        takenAddresses = addressBook.take((address) => hashOf(key, "address", address));
      }
      const nothing =
        taken.views.size === 0 && taken.counts.size === 0 && taken.visitors.size === 0;
      if (nothing && taken.readings.size === 0 && takenAddresses.length === 0) return;
      const visitorRows = await hashVisitors(taken);
      const wanted = await hashReadings(taken);
      const totals = await db.transaction(async (tx) => {
        inserted = await writeVisitors(tx, visitorRows, taken);
        const addressTotals = await writeAddresses(tx, takenAddresses);
        laterReadings = await writeReadings(tx, taken, wanted);
        await writeCounts(tx, taken);
        return addressTotals;
      });
      addressBook.learn(takenAddresses, totals);
    } catch (error) {
      laterReadings = [];
      putBack(taken);
      addressBook.putBack(takenAddresses);
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
    addressBook.forgetBefore(day);
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
    today,
    flush,
    refreshFollowerHosts: sources.refresh,
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
      // This machine's own address is a proxy TRUST_PROXY does not name (or a test): every
      // reader would share it, so it is no crowd to hold to a household (decision 055).
      const local = LOOPBACK.test(view.address);
      if (!local && !addressBook.admit(day, hour, address, view.userAgent)) return;
      const tally = viewsOf(day);
      tally.site += 1;
      tally.paths.set(view.path, (tally.paths.get(view.path) ?? 0) + 1);
      const identity = `${address}\n${view.userAgent}`;
      addVisitor(day, "", identity);
      addVisitor(day, view.path, identity);
      // Most views carry neither a query nor another site's address: no parsing for those.
      const search = view.query ? new URLSearchParams(view.query) : undefined;
      const source =
        view.referrer || search
          ? sources.of(view.referrer, search?.get("utm_source") ?? null)
          : DIRECT;
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
