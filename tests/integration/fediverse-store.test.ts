import { Temporal as Polyfill } from "@js-temporal/polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { fediverseMessages } from "../../server/db/schema.ts";
import { createKvStore } from "../../server/fediverse/kv-store.ts";
import { createMessageQueue } from "../../server/fediverse/message-queue.ts";
import { createLogger } from "../../server/logger.ts";
import { type Driver, drivers, openTestDatabase } from "../helpers/database.ts";

/** Fedify's store and queue on our schema (docs/decisions/044-fediverse-store-and-queue.md). */
const ms = (milliseconds: number) =>
  Polyfill.Duration.from({ milliseconds }) as unknown as Temporal.Duration;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe.each(drivers)("fediverse store and queue on %s", (driver: Driver) => {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const handle = await openTestDatabase(driver, { poolSize: 8 });
    db = handle.db;
    close = () => handle.close();
  });
  afterAll(() => close());

  it("keeps values by key, null included, until deleted or their ttl ends", async () => {
    const kv = createKvStore(db);
    await kv.set(["a", "one"], { n: 1 });
    await kv.set(["a", "miss"], null);
    await kv.set(["a", "brief"], "soon gone", { ttl: ms(1000) });
    expect(await kv.get(["a", "one"])).toEqual({ n: 1 });
    expect(await kv.get(["a", "miss"])).toBeNull();
    expect(await kv.get(["a", "never"])).toBeUndefined();
    expect(await kv.get(["a", "brief"])).toBe("soon gone");
    await sleep(1100);
    expect(await kv.get(["a", "brief"])).toBeUndefined();
    await kv.set(["a", "one"], [1, 2]);
    expect(await kv.get(["a", "one"])).toEqual([1, 2]);
    await kv.delete(["a", "one"]);
    expect(await kv.get(["a", "one"])).toBeUndefined();
  });

  it("lists by whole key parts only", async () => {
    const kv = createKvStore(db);
    await kv.set(["list", "b"], 1);
    await kv.set(["list", "b", "c"], 2);
    await kv.set(["list", "bc"], 3);
    await kv.set(["other"], 4);
    const listed: Array<[readonly string[], unknown]> = [];
    for await (const entry of kv.list(["list", "b"])) listed.push([entry.key, entry.value]);
    expect(listed).toEqual([
      [["list", "b"], 1],
      [["list", "b", "c"], 2],
    ]);
  });

  it("compares and swaps in one step: one of many racers wins", async () => {
    const kv = createKvStore(db);
    const cas = kv.cas;
    if (!cas) throw new Error("cas is implemented");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => cas(["race"], undefined, `racer ${i}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = await kv.get(["race"]);
    expect(await cas(["race"], "someone else", "late")).toBe(false);
    expect(await cas(["race"], winner, "next")).toBe(true);
    expect(await kv.get(["race"])).toBe("next");
    await kv.set(["expired"], "old", { ttl: ms(10) });
    await sleep(50);
    expect(await cas(["expired"], undefined, "fresh")).toBe(true);
  });

  it("hands each message to exactly one of two listening instances, delays included", async () => {
    const logger = createLogger("silent");
    const first = createMessageQueue(db, logger);
    const second = createMessageQueue(db, logger);
    const handled: Array<{ by: string; n: number; at: number }> = [];
    const stop = new AbortController();
    const listening = [first, second].map((queue, index) =>
      queue.listen(
        async (message: { n: number }) => {
          handled.push({ by: `instance ${index}`, n: message.n, at: Date.now() });
          await sleep(5);
        },
        { signal: stop.signal },
      ),
    );
    const enqueuedAt = Date.now();
    await first.enqueueMany?.(Array.from({ length: 40 }, (_, n) => ({ n })));
    await second.enqueue({ n: 100 }, { delay: ms(600) });
    const deadline = Date.now() + 10_000;
    while (handled.length < 41 && Date.now() < deadline) await sleep(50);
    stop.abort();
    await Promise.all(listening);
    expect(handled.map((entry) => entry.n).sort((a, b) => a - b)).toEqual([
      ...Array.from({ length: 40 }, (_, n) => n),
      100,
    ]);
    const delayed = handled.find((entry) => entry.n === 100);
    expect((delayed?.at ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(550);
    expect(await db.select().from(fediverseMessages)).toHaveLength(0);
  });

  it("runs messages of one ordering key one at a time, in order", async () => {
    const queue = createMessageQueue(db, createLogger("silent"));
    const order: number[] = [];
    let running = 0;
    let overlapped = false;
    const stop = new AbortController();
    const listening = queue.listen(
      async (message: { n: number }) => {
        running += 1;
        if (running > 1) overlapped = true;
        await sleep(10);
        order.push(message.n);
        running -= 1;
      },
      { signal: stop.signal },
    );
    for (let n = 0; n < 6; n++) await queue.enqueue({ n }, { orderingKey: "poem-1" });
    const deadline = Date.now() + 10_000;
    while (order.length < 6 && Date.now() < deadline) await sleep(50);
    stop.abort();
    await listening;
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(overlapped).toBe(false);
  });

  it("takes a message again once a dead claim's lease ends, and at a restart its own at once", async () => {
    const queue = createMessageQueue(db, createLogger("silent"));
    const handled: string[] = [];
    // listen() gives the queue its handler; stopped at once, so each drain() below is one step of
    // its loop, run by hand.
    const stop = new AbortController();
    const listening = queue.listen(
      (message: { from: string }) => {
        handled.push(message.from);
      },
      { signal: stop.signal },
    );
    stop.abort();
    await listening;
    await db.insert(fediverseMessages).values([
      {
        message: { from: "a claim whose lease ran out" },
        claimedBy: "instance that died",
        leaseUntil: new Date(Date.now() - 1000),
      },
      {
        message: { from: "a claim still leased" },
        claimedBy: "this process before its restart",
        leaseUntil: new Date(Date.now() + 3_600_000),
      },
    ]);
    await queue.drain();
    expect(handled).toEqual(["a claim whose lease ran out"]);
    await queue.releaseOwnClaims();
    await queue.drain();
    expect(handled).toEqual(["a claim whose lease ran out", "a claim still leased"]);
    expect(await db.select().from(fediverseMessages)).toHaveLength(0);
  });
});
