import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rowsOf } from "../../server/db/client.ts";
import { echoes, poems, poemTags, tags, users } from "../../server/db/schema.ts";
import { createHealthService } from "../../server/operations/health.ts";
import { drivers } from "../helpers/database.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("foundation on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(() => t.close());

  it("reports the database as reachable", async () => {
    const response = await t.app.request("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "up", driver });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await t.app.request("/api/no-such-thing");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Not found" });
  });

  it("refuses an oversized body with 413 before reading it", async () => {
    const response = await t.app.request("/api/health", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ padding: "x".repeat(200 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: "Request body too large" });
  });

  it("sends security headers with a per-request script nonce", async () => {
    const first = await t.app.request("/api/health");
    const second = await t.app.request("/api/health");
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(second.headers.get("content-security-policy")).not.toBe(csp);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("x-request-id")).toBeTruthy();
  });

  it("keeps the spec's uniques, defaults and cascades", async () => {
    const [poem] = await t.db
      .insert(poems)
      .values({ title: "A", slug: "a", stanzas: ["one / two"] })
      .returning();
    const [tag] = await t.db.insert(tags).values({ name: "Becoming" }).returning();
    if (!poem || !tag) throw new Error("insert failed");
    await t.db.insert(poemTags).values({ poemId: poem.id, tagId: tag.id });
    await expect(
      t.db.insert(poems).values({ title: "B", slug: "a", stanzas: [] }),
    ).rejects.toThrow();
    await expect(t.db.insert(tags).values({ name: "Becoming" })).rejects.toThrow();

    const [user] = await t.db.insert(users).values({ email: "reader@example.com" }).returning();
    expect(user?.role).toBe("USER");
    // Unique per poem, stanza, user and session even when the session is absent.
    await t.db.insert(echoes).values({ poemId: poem.id, stanzaIndex: "0", userId: user?.id });
    await expect(
      t.db.insert(echoes).values({ poemId: poem.id, stanzaIndex: "0", userId: user?.id }),
    ).rejects.toThrow();

    await t.db.delete(poems).where(eq(poems.id, poem.id));
    expect(await t.db.select().from(poemTags)).toEqual([]);
    expect(await t.db.select().from(echoes)).toEqual([]);
  });

  it("has every table of the specification", async () => {
    const result = await t.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const names = (result as unknown as { rows: { table_name: string }[] }).rows.map(
      (row) => row.table_name,
    );
    for (const table of [
      "users",
      "sessions",
      "tags",
      "poems",
      "poem_tags",
      "embers",
      "ember_tags",
      "books",
      "echos",
      "whispers",
      "journal_entries",
      "subscriptions",
      "mail_runs",
      "guest_submissions",
    ]) {
      expect(names).toContain(table);
    }
  });

  it("keeps rate-limit counts unlogged and everything else logged (decision 025)", async () => {
    const unlogged = rowsOf<{ relname: string }>(
      await t.db.execute(
        sql`select relname from pg_class
            where relnamespace = 'public'::regnamespace and relkind = 'r' and relpersistence = 'u'`,
      ),
    );
    expect(unlogged.map((row) => row.relname)).toEqual(["rate_limits"]);
  });
});

describe("health when the database cannot be reached", () => {
  it("reports 'down' quickly instead of hanging", async () => {
    // Nothing listens on port 1: every connection is refused.
    const handle = await openDatabase({
      kind: "postgres",
      url: "postgres://postgres@127.0.0.1:1/none",
    });
    const report = await createHealthService(handle).checkHealth();
    expect(report).toEqual({ status: "unavailable", database: "down", driver: "postgres" });
    await handle.close();
  });
});
