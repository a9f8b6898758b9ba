import { and, eq, inArray, sql } from "drizzle-orm";
import * as pages from "../../common/pages.ts";
import { pathTo, prefixOf } from "../../common/path-builder.ts";
import type { Transaction } from "../db/client.ts";
import { dailyCounts, dayAddresses, dayVisitors, digestClicks } from "../db/schema.ts";

/**
 * What a batch of counting writes to the day's rows (docs/decisions/049-counting-without-
 * tracking.md and 055-a-visit-per-page-and-a-crowd-per-address.md), in one transaction that
 * server/insights/counting.ts opens: the visitors' hashes, the addresses' numbers, the
 * readings joined to their visits, the clicks and the counts. Every statement holds at most SLICE
 * rows and is followed by a yield to the event loop, so the requests arriving meanwhile are
 * answered between two statements, never behind the whole batch.
 */

/** Hashes made, or rows written in one statement, between two yields to the event loop. */
export const SLICE = 100;
/** Batches a reading waits for its visit's row (another instance may still hold it). */
const READING_TRIES = 3;

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

export const SOURCE_SCOPE = "source:";
export const CLICK_SCOPE = "click:";
/** The pages a reading's visit may be on: the poem's own and its share page. */
export const visitPathsOf = (slug: string) => [
  pathTo(pages.poem, { slug }),
  pathTo(pages.sharePoem, { slug }),
];

export interface PendingReading {
  day: string;
  identity: string;
  poem: string;
  reached: Set<number> | undefined;
  shared: Set<number>;
  tries: number;
}

/** What one batch writes: taken whole from memory, put back whole when the batch fails. */
export interface Pending {
  counts: Map<string, number>;
  /** Views per day, apart from `counts` so a view builds no key. */
  views: Map<string, { site: number; paths: Map<string, number> }>;
  /** day → scope → identity (or a click's address), until the batch hashes them. */
  visitors: Map<string, Map<string, Set<string>>>;
  visitorCount: number;
  readings: Map<string, PendingReading>;
  clickTargets: Map<string, { runId: number; link: number; url: string }>;
}

export const emptyPending = (): Pending => ({
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
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Readings' candidate visits by `day \u0000 hash`: the page and the reading it would hold. */
export type WantedVisits = Map<string, { reading: PendingReading; scope: string }>;

export interface AddressRow {
  day: string;
  hash: string;
  visitors: number;
  hour: number;
  views: number;
}

export interface VisitorRow {
  day: string;
  scope: string;
  hash: string;
  order: string;
}

/** Inserts the new visitor hashes; only those no instance wrote before count. */
export async function writeVisitors(tx: Transaction, rows: VisitorRow[], taken: Pending) {
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
export async function writeAddresses(tx: Transaction, rows: AddressRow[]) {
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
  return totals;
}

/**
 * Each reading joins its visit's row (the poem's page, or its share page, seen by this visitor
 * today): the first one that reports reaching counts a reading, and each report counts only
 * the stanzas that visit had not reached (or shared) before, so `reached` never passes the
 * visits. A reading whose visit has no row yet waits a few batches, then is dropped.
 */
export async function writeReadings(tx: Transaction, taken: Pending, wanted: WantedVisits) {
  const later: PendingReading[] = [];
  if (taken.readings.size === 0) return later;
  const rows: Array<typeof dayVisitors.$inferSelect> = [];
  for (const day of new Set([...taken.readings.values()].map((reading) => reading.day))) {
    const keys = [...wanted]
      .filter(([k]) => k.startsWith(`${day}\u0000`))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    for (let start = 0; start < keys.length; start += SLICE) {
      const slice = keys.slice(start, start + SLICE);
      // Locked in the order of their hashes, so two instances' batches never wait in a cycle.
      rows.push(
        ...(await tx
          .select()
          .from(dayVisitors)
          .where(
            and(
              eq(dayVisitors.day, day),
              inArray(dayVisitors.scope, [...new Set(slice.map(([, match]) => match.scope))]),
              inArray(
                dayVisitors.hash,
                slice.map(([k]) => k.slice(day.length + 1)),
              ),
            ),
          )
          .orderBy(dayVisitors.hash)
          .for("update")),
      );
      await breathe();
    }
  }
  const found = new Map<PendingReading, (typeof rows)[number]>();
  for (const row of rows) {
    const match = wanted.get(`${row.day}\u0000${row.hash}`);
    if (!match || match.scope !== row.scope) continue;
    // The poem's own page before its share page, when the visitor saw both.
    if (!found.has(match.reading) || row.scope.startsWith(prefixOf(pages.poem))) {
      found.set(match.reading, row);
    }
  }
  for (const reading of taken.readings.values()) {
    const row = found.get(reading);
    if (!row) {
      reading.tries += 1;
      if (reading.tries < READING_TRIES) later.push(reading);
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
  return later;
}

export async function writeCounts(tx: Transaction, taken: Pending) {
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
