import { countKey, emptyPending, type Pending } from "./day-rows.ts";

/** Visitors waiting in memory before a batch is written early. */
const PENDING_VISITORS_MAX = 50_000;
/**
 * While the database is away, batches fail and wait in memory: past this many visitors, new
 * ones are no longer told apart (their views still count), so memory stays bounded.
 */
const PENDING_VISITORS_HELD_MAX = 4 * PENDING_VISITORS_MAX;

/**
 * What the counting holds in memory until the next batch: counts, views, visitors, readings and
 * digest clicks, taken whole by a batch and put back whole when it fails.
 */
export function createPendingCounts(writeEarly: () => void) {
  let pending = emptyPending();

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
    if (pending.visitorCount === PENDING_VISITORS_MAX) writeEarly();
  }

  function viewsOf(day: string) {
    let tally = pending.views.get(day);
    if (!tally) {
      tally = { site: 0, paths: new Map() };
      pending.views.set(day, tally);
    }
    return tally;
  }

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

  return {
    add,
    addVisitor,
    viewsOf,
    putBack,

    /** Everything held, for a batch; memory starts again from nothing. */
    take(): Pending {
      const taken = pending;
      pending = emptyPending();
      return taken;
    },

    /** What memory holds now, for the requests that add to it. */
    get held(): Pending {
      return pending;
    },
  };
}

export type PendingCounts = ReturnType<typeof createPendingCounts>;
