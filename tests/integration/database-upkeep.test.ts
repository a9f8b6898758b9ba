import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../server/core/rate-limit.ts";
import { rateLimits, sessions, users, verifications } from "../../server/db/schema.ts";
import { drivers, rowsOf } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const HOUR_MS = 60 * 60 * 1000;

describe.each(drivers)("database upkeep on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(() => t.close());

  it("removes the rate-limit windows, sessions and sign-in links that have ended, and nothing else", async () => {
    const past = new Date(Date.now() - HOUR_MS);
    const future = new Date(Date.now() + HOUR_MS);
    const [user] = await t.db.insert(users).values({ email: "reader@example.com" }).returning();
    if (!user) throw new Error("user insert failed");
    await t.db.insert(rateLimits).values([
      { key: "echo:user:ended", count: 60, resetAt: past },
      { key: "echo:user:current", count: 3, resetAt: future },
    ]);
    await t.db.insert(sessions).values([
      { token: "ended", userId: user.id, expiresAt: past },
      { token: "current", userId: user.id, expiresAt: future },
    ]);
    await t.db.insert(verifications).values([
      { identifier: "link", value: "ended", expiresAt: past },
      { identifier: "link", value: "current", expiresAt: future },
    ]);

    const report = await t.services.databaseUpkeep.run();

    expect(report.expiredRows).toBe(3);
    expect((await t.db.select().from(rateLimits)).map((row) => row.key)).toEqual([
      "echo:user:current",
    ]);
    expect((await t.db.select().from(sessions)).map((row) => row.token)).toEqual(["current"]);
    expect((await t.db.select().from(verifications)).map((row) => row.value)).toEqual(["current"]);
  });

  it("leaves a limit that is still counting in force", async () => {
    const rule = { ...RATE_LIMITS.whisperPerUser, limit: 1 };
    await t.services.rateLimiter.consume(rule, "upkeep-reader");
    await t.services.databaseUpkeep.run();
    await expect(t.services.rateLimiter.consume(rule, "upkeep-reader")).rejects.toMatchObject({
      status: 429,
    });
  });
});

describe("database upkeep on the embedded database", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite");
  });
  afterAll(() => t.close());

  it("vacuums and analyzes every table, so the space of deleted rows is used again", async () => {
    const poem = await createPoem(t.db);
    const echoHeapBytes = async () =>
      Number(rowsOf(await t.db.execute(sql`select pg_relation_size('echos') as bytes`))[0]?.bytes);
    const echoFromEveryone = (round: number) =>
      t.db.execute(sql`insert into echos (poem_id, stanza_index, session_id)
        select ${poem.id}, '0', ${`round-${round}-`} || n from generate_series(1, 5000) as n`);
    await echoFromEveryone(1);
    const withOneRound = await echoHeapBytes();
    await t.db.execute(sql`delete from echos`);

    const report = await t.services.databaseUpkeep.run();
    await echoFromEveryone(2);

    // Without a vacuum the second round is written after the first one's dead rows (twice the size).
    expect(await echoHeapBytes()).toBe(withOneRound);
    const tables = rowsOf(
      await t.db.execute(sql`select relname, last_vacuum is not null and last_analyze is not null as done
        from pg_stat_user_tables where schemaname = 'public'`),
    );
    expect(tables.filter((table) => !table.done)).toEqual([]);
    expect(report.vacuumedTables).toBe(tables.length);
  });
});
