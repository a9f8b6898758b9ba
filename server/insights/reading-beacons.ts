import { and, eq } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { poems } from "../db/schema.ts";
import { publishedPoems } from "../db/visibility.ts";
import type { Counting, Reading } from "./counting.ts";

/** Poems' stanza counts kept for checking beacons, until content changes. */
const POEMS_REMEMBERED = 5_000;

/** The reading beacon's check: a published poem, and stanzas it has, before it is counted. */
export function readingBeacons(deps: ServiceDeps, counting: Counting) {
  const { db, now } = deps;

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

  return {
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

    contentChanged(): void {
      stanzaCounts.clear();
    },
  };
}
