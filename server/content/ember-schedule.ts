import { asc, eq, gte } from "drizzle-orm";
import { ADMIN_EMBERS_READ } from "../../common/constants.ts";
import { dayInZone, dayToDate } from "../../common/dates.ts";
import type { EmberInput, ScheduledEmber } from "../../common/schemas/admin.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { embers, emberTags } from "../db/schema.ts";
import { type ContentAdminDeps, type ContentWrites, linkTags } from "./content-writes.ts";
import { withTags } from "./poem-rows.ts";

/** An ember as the admin's schedule shows it, which is also what its writes answer. */
export const scheduledEmberColumns = {
  id: embers.id,
  text: embers.text,
  date: embers.date,
  isFeatured: embers.isFeatured,
  featuredAt: embers.featuredAt,
  createdAt: embers.createdAt,
  updatedAt: embers.updatedAt,
};

const EMBER_DAY_TAKEN = "An ember is already scheduled for that date";

/** Featuring an ember stamps featuredAt; the newest featured one is the Ember of the Week. */
function emberValues(now: ServiceDeps["now"], input: EmberInput, wasFeatured: boolean) {
  const isFeatured = input.isFeatured ?? wasFeatured;
  return {
    text: input.text,
    date: dayToDate(input.date),
    isFeatured,
    ...(isFeatured && !wasFeatured ? { featuredAt: now() } : {}),
    ...(!isFeatured ? { featuredAt: null } : {}),
  };
}

async function readEmber(db: Database, id: number): Promise<ScheduledEmber> {
  const rows = await db.select(scheduledEmberColumns).from(embers).where(eq(embers.id, id));
  const [ember] = await withTags(db, rows, emberTags);
  if (!ember) throw notFound("Ember not found");
  return ember;
}

/** The embers' schedule as the poet keeps it: one ember a day, written ahead. */
export function emberSchedule(deps: ContentAdminDeps, { writeContent }: ContentWrites) {
  const { db, config, now } = deps;
  return {
    /** From today in SITE_TIMEZONE onward, soonest first: the schedule, future days included. */
    async listEmberSchedule(
      _admin: AdminActor,
      limit = ADMIN_EMBERS_READ,
    ): Promise<ScheduledEmber[]> {
      const today = dayToDate(dayInZone(config.siteTimezone, now()));
      const rows = await db
        .select(scheduledEmberColumns)
        .from(embers)
        .where(gte(embers.date, today))
        .orderBy(asc(embers.date))
        .limit(Math.min(limit, ADMIN_EMBERS_READ));
      return withTags(db, rows, emberTags);
    },

    async createEmber(_admin: AdminActor, input: EmberInput): Promise<ScheduledEmber> {
      const { id } = await writeContent(
        () =>
          db.transaction(async (tx) => {
            const [ember] = await tx
              .insert(embers)
              .values(emberValues(now, input, false))
              .returning({ id: embers.id });
            if (!ember) throw new Error("ember insert returned nothing");
            await linkTags(tx, { emberId: ember.id }, input.tagIds ?? []);
            return ember;
          }),
        EMBER_DAY_TAKEN,
      );
      return readEmber(db, id);
    },

    async updateEmber(_admin: AdminActor, id: number, input: EmberInput): Promise<ScheduledEmber> {
      await writeContent(
        () =>
          db.transaction(async (tx) => {
            const [existing] = await tx
              .select({ isFeatured: embers.isFeatured })
              .from(embers)
              .where(eq(embers.id, id))
              .for("update");
            if (!existing) throw notFound("Ember not found");
            await tx
              .update(embers)
              .set({ ...emberValues(now, input, existing.isFeatured), isSample: false })
              .where(eq(embers.id, id));
            if (input.tagIds) await linkTags(tx, { emberId: id }, input.tagIds);
          }),
        EMBER_DAY_TAKEN,
      );
      return readEmber(db, id);
    },

    async deleteEmber(_admin: AdminActor, id: number): Promise<void> {
      await writeContent(async () => {
        const deleted = await db
          .delete(embers)
          .where(eq(embers.id, id))
          .returning({ id: embers.id });
        if (deleted.length === 0) throw notFound("Ember not found");
      });
    },
  };
}
