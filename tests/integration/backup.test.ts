import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "../../server/cli/commands.ts";
import { createBackup, RestoreRefused, restoreBackup } from "../../server/db/backup.ts";
import {
  echoes,
  fediverseBlocks,
  fediverseFollowers,
  journalEntries,
  poems,
  remoteAccounts,
  users,
  whispers,
} from "../../server/db/schema.ts";
import { actorKeyPairs } from "../../server/fediverse/keys.ts";
import { createLogger } from "../../server/logger.ts";
import { type Driver, drivers, openTestDatabase } from "../helpers/database.ts";
import { createEmber, createPoem, createSubscribers } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("backup and restore from %s", (driver) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(driver);
    await signIn(t, "reader@example.com");
    const [reader] = await t.db.select({ id: users.id }).from(users);
    const readerId = reader?.id ?? "";
    const poem = await createPoem(t.db, {
      title: `It's "quoted" — and <marked>`,
      stanzas: ["one / two", "three"],
      tagNames: ["night", "sea"],
    });
    await createEmber(t.db, {
      day: "2026-11-20",
      text: "An ember\nwith two lines",
      isFeatured: true,
      featuredAt: new Date(),
    });
    await createSubscribers(t.db, ["a@example.com", "b@example.com"]);
    await t.db.insert(echoes).values({ poemId: poem.id, stanzaIndex: "1", userId: readerId });
    await t.db
      .insert(whispers)
      .values({ poemId: poem.id, stanzaIndex: "0", userId: readerId, text: "a whisper 🌊" });
    await t.db
      .insert(journalEntries)
      .values({ userId: readerId, poemId: poem.id, stanzaIndex: "1" });
    await actorKeyPairs(t.db);
    const follower = "https://elsewhere.example/users/ada";
    await t.db.insert(remoteAccounts).values({
      actorUrl: follower,
      handle: "@ada@elsewhere.example",
      inbox: `${follower}/inbox`,
      server: "elsewhere.example",
    });
    await t.db.insert(fediverseFollowers).values({ actorId: follower });
    await t.db.insert(fediverseBlocks).values({ kind: "server", value: "spam.example" });
  }, 120_000);
  afterAll(() => t.close());

  it.each(drivers)(
    "round-trips every table into an empty %s database",
    async (target: Driver) => {
      const backup = await createBackup(t.db);
      expect(backup.tables.poems).toHaveLength(1);
      expect(backup.tables.sessions?.length).toBeGreaterThan(0);
      // The fediverse account's keys, followers and blocks (docs/decisions/045-federation-layer.md).
      expect(backup.tables.fediverse_keys).toHaveLength(2);
      expect(backup.tables.fediverse_followers).toHaveLength(1);
      // Through a file, as the CLI keeps it.
      const copy = JSON.parse(JSON.stringify(backup));
      const restored = await openTestDatabase(target);
      try {
        await restoreBackup(restored.db, copy);
        const again = await createBackup(restored.db);
        expect(again.tables).toEqual(backup.tables);
        // New rows take ids after the restored ones.
        const [next] = await restored.db
          .insert(poems)
          .values({ title: "After", slug: "after", stanzas: ["x"] })
          .returning();
        const highest = Math.max(...(backup.tables.poems as { id: number }[]).map((row) => row.id));
        expect(next?.id).toBeGreaterThan(highest);
      } finally {
        await restored.close();
      }
    },
    120_000,
  );

  it("refuses to restore over existing data and changes nothing", async () => {
    const backup = await createBackup(t.db);
    await expect(restoreBackup(t.db, backup)).rejects.toThrow(RestoreRefused);
    expect((await createBackup(t.db)).tables).toEqual(backup.tables);
    await expect(
      restoreBackup(t.db, { ...backup, format: "something-else" } as never),
    ).rejects.toThrow(/not an Ember Verse backup/);
  });

  it("exports the content alone and imports it where an admin has already signed in", async () => {
    const content = await createBackup(t.db, "content");
    // Parents first, ties by name (docs/decisions/063-a-backup-of-every-table.md).
    expect(Object.keys(content.tables)).toEqual([
      "books",
      "embers",
      "poems",
      "subscriptions",
      "tags",
      "ember_tags",
      "poem_tags",
    ]);
    const target = await createTestApp(driver);
    try {
      await signIn(target, "new-poet@example.com", { admin: true });
      await restoreBackup(target.db, JSON.parse(JSON.stringify(content)));
      expect((await createBackup(target.db, "content")).tables).toEqual(content.tables);
      const poem = await (await target.app.request("/api/poems")).json();
      expect(poem[0].title).toBe(`It's "quoted" — and <marked>`);
      await expect(restoreBackup(target.db, content)).rejects.toThrow(/not empty/);
    } finally {
      await target.close();
    }
  }, 120_000);
});

describe.each(drivers)("restore through the CLI on %s", (driver) => {
  let t: TestApp;
  let file: string;

  beforeAll(async () => {
    t = await createTestApp(driver);
    await createPoem(t.db, { title: "Kept", slug: "kept", tagNames: ["sea"] });
    file = path.join(t.dataDir, "site.backup.gz");
    await commands.backup?.run(operatorOf(t), [file]);
    await createPoem(t.db, { title: "Written after", slug: "written-after" });
  }, 120_000);
  afterAll(() => t.close());

  it("says table by table what a dry run would replace, and writes nothing", async () => {
    const output = await commands.restore?.run(operatorOf(t), [file, "--dry-run"]);
    expect(output).toContain("  poems: 2 → 1 (replaced)");
    expect(output).toContain("  tags: 1 → 1 (replaced)");
    expect(output).toContain("the site has content: the restore needs --replace");
    expect(output).toMatch(/nothing written$/);
    const poems = await (await t.app.request("/api/poems")).json();
    expect(poems).toHaveLength(2);
  });

  it("asks for --replace, then keeps a backup of what it replaces in DATA_DIR", async () => {
    await expect(commands.restore?.run(operatorOf(t), [file])).rejects.toThrow(
      /the database is not empty \(.*poems 2.*\); add --replace/,
    );
    const before = await createBackup(t.db);
    const output = (await commands.restore?.run(operatorOf(t), [file, "--replace"])) ?? "";
    const kept = /what it replaced is backed up in (.+)$/.exec(output)?.[1] ?? "";
    expect(path.dirname(kept)).toBe(path.join(t.dataDir, "backups"));
    const titles = (await (await t.app.request("/api/poems")).json()).map(
      (poem: { title: string }) => poem.title,
    );
    expect(titles).toEqual(["Kept"]);
    // What was replaced, whole, in the kept backup: it restores what the site held before.
    const replaced = JSON.parse(gunzipSync(fs.readFileSync(kept)).toString("utf8"));
    expect(replaced.tables).toEqual(before.tables);
  });
});

function operatorOf(t: TestApp) {
  return {
    config: t.config,
    handle: t.handle,
    logger: createLogger("silent"),
    services: t.services,
  };
}
