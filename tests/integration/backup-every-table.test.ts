import { getTableColumns, getTableName, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, createBackup, restoreBackup } from "../../server/db/backup.ts";
import {
  BACKED_UP_TABLES,
  LEFT_OUT_OF_BACKUPS,
  SCHEMA_TABLES,
} from "../../server/db/backup-tables.ts";
import type { Database, DatabaseHandle } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema.ts";
import { drivers, openTestDatabase, rowsOf } from "../helpers/database.ts";
import { createEmber, createPoem, createSubscribers } from "../helpers/factories.ts";

/**
 * A backup holds every table, or names why it leaves one out
 * (docs/decisions/063-a-backup-of-every-table.md): the tables are read from the schema and from
 * the migrated database itself, so a table added anywhere is either backed up or explained.
 */
describe("which tables a backup holds", () => {
  it("backs up every table of the schema but those it names, each with a reason", () => {
    const backedUp = new Set(BACKED_UP_TABLES.map((table) => getTableName(table)));
    for (const table of SCHEMA_TABLES) {
      const name = getTableName(table);
      const reason = LEFT_OUT_OF_BACKUPS[name];
      expect(backedUp.has(name) || (reason?.length ?? 0) > 20, name).toBe(true);
      expect(backedUp.has(name) && reason !== undefined, `${name} is both`).toBe(false);
    }
    const schemaNames = new Set(SCHEMA_TABLES.map((table) => getTableName(table)));
    for (const name of Object.keys(LEFT_OUT_OF_BACKUPS)) expect(schemaNames.has(name)).toBe(true);
  });

  it.each(drivers)(
    "names in the backup every table the %s database has",
    async (driver) => {
      const handle = await openTestDatabase(driver);
      try {
        const backup = await createBackup(handle.db);
        const tables = rowsOf(
          await handle.db.execute(
            sql`select table_name from information_schema.tables
              where table_schema = 'public' and table_type = 'BASE TABLE'`,
          ),
        ).map((row) => row.table_name ?? "");
        expect(tables.length).toBeGreaterThan(30);
        for (const name of tables) {
          const held = name in backup.tables || (backup.leftOut?.[name]?.length ?? 0) > 0;
          expect(held, `${name} is neither backed up nor left out with a reason`).toBe(true);
        }
      } finally {
        await handle.close();
      }
    },
    120_000,
  );
});

/** One row or more in every table a backup holds, each pointing where its foreign keys say. */
async function fillEveryTable(db: Database) {
  const [poet] = await db
    .insert(schema.users)
    .values({ email: "poet@example.com", name: "Poet", role: "ADMIN" })
    .returning();
  const [remote] = await db
    .insert(schema.users)
    .values({ isRemote: true, name: "Ada" })
    .returning();
  if (!poet || !remote) throw new Error("users not made");
  const [author] = await db
    .insert(schema.remoteAccounts)
    .values({
      userId: remote.id,
      actorUrl: "https://elsewhere.example/users/ada",
      handle: "@ada@elsewhere.example",
      server: "elsewhere.example",
      inbox: "https://elsewhere.example/users/ada/inbox",
    })
    .returning();
  const later = new Date("2030-01-01T00:00:00Z");
  await db.insert(schema.sessions).values({ token: "t1", userId: poet.id, expiresAt: later });
  await db
    .insert(schema.accounts)
    .values({ accountId: poet.id, providerId: "magic-link", userId: poet.id });
  await db.insert(schema.verifications).values({ identifier: "i", value: "v", expiresAt: later });
  await db.insert(schema.rateLimits).values({ key: "echo:x", count: 3, resetAt: later });
  const poem = await createPoem(db, {
    title: "Every table",
    stanzas: ["one / two", "  indented \\/ slash"],
    tagNames: ["sea"],
  });
  const [version] = await db
    .insert(schema.poemVersions)
    .values({ poemId: poem.id, title: "Before", stanzas: ["zero"], savedAt: new Date() })
    .returning();
  await createEmber(db, { day: "2026-11-20", tagNames: ["sea"] });
  await db.insert(schema.books).values({
    title: "A book",
    slug: "a-book",
    blurb: "b",
    coverUrl: "/objects/images/x",
    buyUrl: "https://example.com",
  });
  await db.insert(schema.echoes).values({ poemId: poem.id, stanzaIndex: "1", userId: poet.id });
  await db.insert(schema.whispers).values({
    poemId: poem.id,
    stanzaIndex: "0",
    userId: poet.id,
    text: "a whisper",
    removedWithVersionId: version?.id,
  });
  await db
    .insert(schema.journalEntries)
    .values({ userId: poet.id, poemId: poem.id, stanzaIndex: "0" });
  const [subscription] = await createSubscribers(db, ["a@example.com"]);
  const [run] = await db
    .insert(schema.mailRuns)
    .values({ subject: "A week", content: {} as never, status: "sent", createdBy: poet.id })
    .returning();
  if (!run || !subscription || !author) throw new Error("rows not made");
  await db.insert(schema.digestSchedule).values({ enabled: true, weekday: 5, time: "09:00" });
  await db.insert(schema.siteSettings).values({
    siteTitle: "Mine",
    links: [{ label: "l", url: "https://x.example" }],
    booksPage: {
      slots: [{ label: "", pullQuote: null, comingSoon: "Soon", isHiddenWhenEmpty: true }],
      closing: null,
    },
    pinnedPoemId: poem.id,
  });
  await db
    .insert(schema.digestDeliveries)
    .values({ runId: run.id, subscriptionId: subscription.id, status: "sent" });
  const [submission] = await db
    .insert(schema.guestSubmissions)
    .values({ name: "G", email: "g@example.com", poemTitle: "T", poemText: "text" })
    .returning();
  await db.insert(schema.guestVoices).values({
    slug: "g",
    name: "G",
    handle: "@g",
    socialUrl: "https://g.example",
    bio: "bio",
    title: "T",
    body: ["text"],
    position: 9,
    submissionId: submission?.id,
  });
  const [activity] = await db
    .insert(schema.fediverseActivities)
    .values({ activityId: "https://site.example/a/1", type: "Create", poemId: poem.id, body: {} })
    .returning();
  await db
    .insert(schema.fediverseDeliveries)
    .values({ activityId: activity?.id ?? 0, inbox: "https://elsewhere.example/inbox" });
  await db
    .insert(schema.fediversePoemState)
    .values({ poemId: poem.id, state: "created", slug: poem.slug });
  await db
    .insert(schema.fediverseKeys)
    .values({ algorithm: "Ed25519", privateKey: { kty: "OKP" }, publicKey: { kty: "OKP" } });
  await db
    .insert(schema.fediverseFollowers)
    .values({ actorId: "https://elsewhere.example/users/ada" });
  await db.insert(schema.fediverseBlocks).values({ kind: "server", value: "spam.example" });
  await db.insert(schema.poemBoosts).values({
    poemId: poem.id,
    remoteAccountId: author.id,
    activityId: "https://elsewhere.example/b/1",
  });
  const [job] = await db
    .insert(schema.importJobs)
    .values({
      source: "files",
      fileName: "poems.zip",
      state: "done",
      parsed: { source: "files", poems: [], subscribers: [], skipped: [] },
      poemCount: 1,
      subscriberCount: 0,
      importableSubscriberCount: 0,
      selectedPoemCount: 1,
      createdBy: poet.id,
    })
    .returning();
  await db
    .insert(schema.importItems)
    .values({ source: "files", sourceId: "a.md", poemId: poem.id, jobId: job?.id });
  await db
    .insert(schema.importRedirects)
    .values({ path: "/p/every-table", poemId: poem.id, jobId: job?.id });
  await db
    .insert(schema.dailyCounts)
    .values({ day: "2026-11-20", metric: "views", subject: poem.slug, count: 4 });
  await db
    .insert(schema.digestClicks)
    .values({ runId: run.id, link: 0, url: "https://site.example/", clicks: 2 });
  // A chapbook with its built files: bytea goes through the backup's JSON as hex and back.
  const [chapbook] = await db
    .insert(schema.chapbooks)
    .values({ slug: "every-table", title: "Every Table", pdf: Buffer.from("%PDF-1.7 every table") })
    .returning();
  if (!chapbook) throw new Error("chapbook not made");
  await db
    .insert(schema.chapbookPoems)
    .values({ chapbookId: chapbook.id, poemId: poem.id, position: 0 });
}

/** The next value of every identity sequence of `handle`, by table and column. */
async function nextIdentities(handle: DatabaseHandle) {
  const next: Record<string, number> = {};
  for (const table of BACKED_UP_TABLES) {
    for (const column of Object.values(getTableColumns(table))) {
      if (!column.generatedIdentity) continue;
      const name = `${getTableName(table)}.${column.name}`;
      const [row] = rowsOf(
        await handle.db.execute(
          sql`select nextval(pg_get_serial_sequence(${getTableName(table)}, ${column.name})) as next`,
        ),
      );
      next[name] = Number(row?.next);
    }
  }
  return next;
}

describe.each(drivers)("a backup of every table from %s", (driver) => {
  let source: DatabaseHandle;
  let backup: Backup;

  beforeAll(async () => {
    source = await openTestDatabase(driver);
    await fillEveryTable(source.db);
    backup = JSON.parse(JSON.stringify(await createBackup(source.db)));
  }, 120_000);
  afterAll(() => source.close());

  it("has rows in every table it holds, and names the tables it leaves out", () => {
    for (const table of BACKED_UP_TABLES) {
      const name = getTableName(table);
      // A new table needs a row in fillEveryTable, so that its restore is tested too.
      expect(backup.tables[name]?.length ?? 0, `fill ${name} in fillEveryTable`).toBeGreaterThan(0);
    }
    expect(backup.leftOut).toEqual(LEFT_OUT_OF_BACKUPS);
  });

  it.each(drivers)(
    "restores every row into a fresh %s database, ids continuing",
    async (target) => {
      const restored = await openTestDatabase(target);
      try {
        await restoreBackup(restored.db, backup);
        const again = await createBackup(restored.db);
        expect(again.tables).toEqual(backup.tables);
        const next = await nextIdentities(restored);
        for (const table of BACKED_UP_TABLES) {
          for (const column of Object.values(getTableColumns(table))) {
            if (!column.generatedIdentity) continue;
            const rows = backup.tables[getTableName(table)] as Record<string, number>[];
            const highest = Math.max(0, ...rows.map((row) => Number(row[column.name])));
            expect(next[`${getTableName(table)}.${column.name}`]).toBeGreaterThan(highest);
          }
        }
      } finally {
        await restored.close();
      }
    },
    120_000,
  );
});
