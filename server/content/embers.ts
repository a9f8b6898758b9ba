import { and, desc, eq, sql } from "drizzle-orm";
import { dayInZone, dayToDate } from "../../common/dates.ts";
import type { Ember } from "../../common/schemas/embers.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import { embers } from "../db/schema.ts";
import { shownEmbers } from "../db/visibility.ts";

const emberColumns = {
  id: embers.id,
  text: embers.text,
  date: embers.date,
  isFeatured: embers.isFeatured,
  featuredAt: embers.featuredAt,
};

/** Daily embers as readers see them: never one dated after today in SITE_TIMEZONE. */
export function createEmberService({ db, config, now }: ServiceDeps) {
  const published = () => shownEmbers(now(), config.siteTimezone);
  return {
    async getTodaysEmber(): Promise<Ember> {
      const today = dayToDate(dayInZone(config.siteTimezone, now()));
      const [ember] = await db
        .select(emberColumns)
        .from(embers)
        .where(and(published(), eq(embers.date, today)));
      if (!ember) throw notFound("No ember available today");
      return ember;
    },

    /**
     * The Ember of the Week: the one an admin most recently featured; with none featured, the
     * latest ember dated on or before today.
     */
    async getFeaturedEmber(): Promise<Ember> {
      const [featured] = await db
        .select(emberColumns)
        .from(embers)
        .where(and(eq(embers.isFeatured, true), published()))
        .orderBy(sql`${embers.featuredAt} desc nulls last`, desc(embers.date))
        .limit(1);
      if (featured) return featured;
      const [latest] = await db
        .select(emberColumns)
        .from(embers)
        .where(published())
        .orderBy(desc(embers.date))
        .limit(1);
      if (!latest) throw notFound("No ember available");
      return latest;
    },

    /** Newest first, one page at a time (page from 1). */
    async listEmbers(page: number, limit: number): Promise<Ember[]> {
      return db
        .select(emberColumns)
        .from(embers)
        .where(published())
        .orderBy(desc(embers.date))
        .limit(limit)
        .offset((page - 1) * limit);
    },
  };
}

export type EmberService = ReturnType<typeof createEmberService>;
