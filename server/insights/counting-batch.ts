import { lt } from "drizzle-orm";
import type { ServiceDeps } from "../core/deps.ts";
import { dayAddresses, dayVisitors, visitSalts } from "../db/schema.ts";
import type { AddressBook, TakenAddress } from "./address.ts";
import { createDayHashes, hashOf } from "./day-hashes.ts";
import {
  type PendingReading,
  writeAddresses,
  writeCounts,
  writeReadings,
  writeVisitors,
} from "./day-rows.ts";
import type { PendingCounts } from "./pending-counts.ts";

/**
 * The counting's batch: what memory holds, hashed with the day's key and written to the day's
 * rows in one transaction (day-rows.ts), one batch at a time; then the ended days forgotten.
 */
export function createCountingBatches(
  deps: ServiceDeps & { secret: string },
  parts: { today: () => string; memory: PendingCounts; addressBook: AddressBook },
) {
  const { db } = deps;
  const { today, memory, addressBook } = parts;
  const hashes = createDayHashes(deps);

  /** Readings still waiting for their visit's row, for the next batch. */
  let laterReadings: PendingReading[] = [];

  /** Writes what memory holds; on failure it stays in memory for the next batch. */
  async function writeBatch(): Promise<void> {
    const taken = memory.take();
    for (const reading of laterReadings) {
      taken.readings.set(`${reading.day}\u0000${reading.identity}\u0000${reading.poem}`, reading);
    }
    laterReadings = [];
    let takenAddresses: TakenAddress[] = [];
    let inserted: Array<{ day: string; scope: string; hash: string }> = [];
    try {
      if (addressBook.day) {
        const key = await hashes.dayKeyFor(addressBook.day);
        takenAddresses = addressBook.take((address) => hashOf(key, "address", address));
      }
      const nothing =
        taken.views.size === 0 && taken.counts.size === 0 && taken.visitors.size === 0;
      if (nothing && taken.readings.size === 0 && takenAddresses.length === 0) return;
      const visitorRows = await hashes.hashVisitors(taken);
      const wanted = await hashes.hashReadings(taken);
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
      memory.putBack(taken);
      addressBook.putBack(takenAddresses);
      throw error;
    }
    hashes.remember(inserted);
  }

  /** Yesterday's salt, hashes and addresses go, here and in the database, once today has begun. */
  async function forgetEndedDays(): Promise<void> {
    const day = today();
    await db.delete(visitSalts).where(lt(visitSalts.day, day));
    await db.delete(dayVisitors).where(lt(dayVisitors.day, day));
    await db.delete(dayAddresses).where(lt(dayAddresses.day, day));
    hashes.forgetBefore(day);
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

  return { flush };
}
