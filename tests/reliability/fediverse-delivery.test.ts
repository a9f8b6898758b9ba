import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db/client.ts";
import {
  fediverseDeliveries,
  fediverseFollowers,
  poems,
  remoteAccounts,
} from "../../server/db/schema.ts";
import { DELIVERY_DEFAULTS } from "../../server/fediverse/delivery.ts";
import { actorKeyPairs } from "../../server/fediverse/keys.ts";
import { type Cluster, startCluster } from "../helpers/cluster.ts";
import { startInboxServer } from "../helpers/inbox-server.ts";

/**
 * Deliveries are exactly-once per inbox across instances and crashes
 * (docs/decisions/047-fediverse-delivery.md): two instances on one PostgreSQL send a poem that
 * comes due while both run to each of 200 followers' inboxes once, and when one of them is
 * killed in the middle of the fan-out, no inbox is left out and only POSTs that were in flight
 * are sent twice.
 */

const FOLLOWERS = 200;
/** POSTs one instance has in flight at once. */
const CONCURRENCY = DELIVERY_DEFAULTS.concurrency;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(delayMs: number) {
  const cluster: Cluster = await startCluster(
    2,
    // A lease of 10 s, not 60: the survivor takes over a killed instance's claims sooner.
    { FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "true", LOG_LEVEL: "warn", FEDIVERSE_LEASE_SECONDS: "10" },
    { seedDemo: false },
  );
  cleanups.push(() => cluster.stop());
  const database: DatabaseHandle = await openDatabase({
    kind: "postgres",
    url: cluster.postgres.databaseUrl,
  });
  cleanups.push(() => database.close());
  // The first to ask makes the actor's keys; the instances read the same row.
  const [rsa] = await actorKeyPairs(database.db);
  if (!rsa) throw new Error("no RSA key pair");
  const inboxes = await startInboxServer({ publicKey: rsa.publicKey, delayMs });
  cleanups.push(() => inboxes.close());
  const actors = Array.from({ length: FOLLOWERS }, (_, n) => {
    const id = inboxes.inbox(`/users/reader${n}`);
    return {
      actorUrl: id,
      handle: `@reader${n}@localhost`,
      inbox: inboxes.inbox(`/users/reader${n}/inbox`),
      server: new URL(id).host,
    };
  });
  await database.db.insert(remoteAccounts).values(actors);
  await database.db
    .insert(fediverseFollowers)
    .values(actors.map(({ actorUrl }) => ({ actorId: actorUrl, followId: null })));
  // Due two seconds from now, while both instances run: nobody acts when it comes.
  await database.db.insert(poems).values({
    title: "Due while both run",
    slug: "due-while-both-run",
    stanzas: ["a line / another"],
    publishAt: new Date(Date.now() + 2000),
  });
  return { cluster, database, inboxes };
}

function countsPerInbox(received: { inbox: string; activity: { type: string } }[]) {
  const counts = new Map<string, number>();
  for (const { inbox, activity } of received) {
    if (activity.type === "Create") counts.set(inbox, (counts.get(inbox) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("fediverse deliveries across instances", () => {
  it("two instances deliver a poem that comes due to each of 200 inboxes once", async () => {
    const { database, inboxes } = await setUp(0);
    // The reconciliation runs every 15 s: the poem goes out within the minute.
    await expect
      .poll(() => countsPerInbox(inboxes.received).size, { timeout: 60_000, interval: 500 })
      .toBe(FOLLOWERS);
    // Time for any second copy to arrive, were there one.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const counts = countsPerInbox(inboxes.received);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const states = await database.db
      .select({ state: fediverseDeliveries.state })
      .from(fediverseDeliveries);
    expect(states).toHaveLength(FOLLOWERS);
    expect(states.every(({ state }) => state === "sent")).toBe(true);
    expect(inboxes.refused).toEqual([]);
  }, 120_000);

  it("an instance killed mid-fan-out loses no inbox and re-sends only what was in flight", async () => {
    // Slow inboxes, so the fan-out is still going when the kill comes.
    const { cluster, database, inboxes } = await setUp(1000);
    await expect
      .poll(() => inboxes.received.length, { timeout: 60_000, interval: 100 })
      .toBeGreaterThanOrEqual(20);
    const [victim] = cluster.servers;
    if (!victim) throw new Error("two instances expected");
    const exited = new Promise((resolve) => victim.process.once("exit", resolve));
    victim.process.kill("SIGKILL");
    await exited;
    // The kill came in the middle of the fan-out.
    expect(countsPerInbox(inboxes.received).size).toBeLessThan(FOLLOWERS);
    // The survivor takes the victim's claims once their lease (10 s) runs out.
    await expect
      .poll(() => countsPerInbox(inboxes.received).size, { timeout: 120_000, interval: 500 })
      .toBe(FOLLOWERS);
    await expect
      .poll(
        async () =>
          (
            await database.db.select({ state: fediverseDeliveries.state }).from(fediverseDeliveries)
          ).filter(({ state }) => state !== "sent").length,
        { timeout: 30_000, interval: 500 },
      )
      .toBe(0);
    const twice = [...countsPerInbox(inboxes.received).values()].filter((count) => count > 1);
    expect(twice.every((count) => count === 2)).toBe(true);
    expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);
  }, 240_000);
});
