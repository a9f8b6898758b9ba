import { type AddressBook, addressKeyOf } from "./address.ts";
import type { PageView, Reading } from "./counting.ts";
import type { DayClock } from "./day-clock.ts";
import { CLICK_SCOPE, METRICS, SOURCE_SCOPE } from "./day-rows.ts";
import type { PendingCounts } from "./pending-counts.ts";
import type { createSourceReader } from "./source-reader.ts";
import type { Source } from "./sources.ts";

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;
const DIRECT: Source = { group: "direct", id: "direct" };
const DIRECT_SCOPE = `${SOURCE_SCOPE}${DIRECT.id}`;
const SHARE_PATH = /^\/share\/poem\/([^/]+)$/;

/**
 * What a reader's request costs the counting: a few map updates, whether its address is within
 * a household's visitors and a reader's pace, and the view, reading or click put aside for the
 * next batch.
 */
export function readerRequests(parts: {
  clock: DayClock;
  memory: PendingCounts;
  addressBook: AddressBook;
  sources: ReturnType<typeof createSourceReader>;
}) {
  const { clock, memory, addressBook, sources } = parts;
  const { today } = clock;
  const { add, addVisitor, viewsOf } = memory;

  return {
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
      if (!local && !addressBook.admit(day, clock.hour, address, view.userAgent)) return;
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
      const pending = memory.held;
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
      memory.held.clickTargets.set(scope, target);
      addVisitor(today(), scope, addressKeyOf(address));
    },
  };
}
