import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Backup, createBackup, restoreBackup } from "../../server/db/backup.ts";
import { migrationsFolder } from "../../server/db/client.ts";
import { drivers, openTestDatabase, rowsOf } from "../helpers/database.ts";
import { createFreshPostgres } from "../helpers/fresh-postgres.ts";

/**
 * The migration that made one table of remote accounts out of `remote_authors` and
 * `remote_actors` (docs/decisions/075-one-table-of-remote-accounts.md) loses no follower,
 * whisper, echo or boost: a database at the migration before it is filled as the site filled
 * it, then migrated to today; and a backup made before it restores into today's tables.
 */

/** The migrations up to and including `last`, as a folder of their own. */
function migrationsUpTo(last: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ev-migrations-"));
  fs.mkdirSync(path.join(folder, "meta"));
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((entry) => entry.tag === last);
  if (end < 0) throw new Error(`no migration ${last}`);
  journal.entries = journal.entries.slice(0, end + 1);
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const { tag } of journal.entries) {
    fs.copyFileSync(path.join(migrationsFolder, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  }
  return folder;
}

const BEFORE = "0024_books_page_and_home_poem";
const ADA = "https://elsewhere.example/users/ada";
const BO = "https://elsewhere.example/users/bo";
const REMOTE_USER = "5b0c3f5e-4a8d-4f55-9a57-0f6c1c1a0001";

interface Migratable {
  execute: (query: ReturnType<typeof sql>) => Promise<Record<string, unknown>[]>;
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
}

async function openMigratable(driver: (typeof drivers)[number]): Promise<Migratable> {
  if (driver === "pglite") {
    const client = new PGlite();
    const db = drizzlePglite(client);
    return {
      execute: async (query) => (await db.execute(query)).rows as Record<string, unknown>[],
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const database = await createFreshPostgres("ev_test");
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const db = drizzlePostgres(pool);
  return {
    execute: async (query) => (await db.execute(query)).rows as Record<string, unknown>[],
    migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await database.drop();
    },
  };
}

const before = migrationsUpTo(BEFORE);
afterAll(() => fs.rmSync(before, { recursive: true, force: true }));

describe.each(drivers)("one table of remote accounts (%s)", (driver) => {
  it("keeps every follower, whisper, echo and boost, and each author's id", async () => {
    const database = await openMigratable(driver);
    try {
      await database.migrate(before);
      // Ada replied, liked and boosted (an author since the 10th) and follows; her actor
      // document was read again on the 12th, under a new name. Bo only follows.
      await database.execute(sql`
        insert into users (id, email, name, first_name, is_remote)
        values (${REMOTE_USER}, null, 'Ada', 'Ada', true)`);
      await database.execute(sql`
        insert into remote_authors (id, user_id, actor_url, handle, name, server, created_at, updated_at)
        overriding system value
        values (7, ${REMOTE_USER}, ${ADA}, '@ada@elsewhere.example', 'Ada', 'elsewhere.example',
                '2026-11-10T00:00:00Z', '2026-11-10T00:00:00Z')`);
      await database.execute(sql`
        insert into remote_actors (id, handle, name, inbox, shared_inbox, public_key_id, server, updated_at)
        values (${ADA}, '@ada@elsewhere.example', 'Ada Lovelace', ${`${ADA}/inbox`},
                'https://elsewhere.example/inbox', ${`${ADA}#main-key`}, 'elsewhere.example',
                '2026-11-12T00:00:00Z'),
               (${BO}, '@bo@elsewhere.example', null, ${`${BO}/inbox`}, null, null,
                'elsewhere.example', '2026-11-11T00:00:00Z')`);
      await database.execute(sql`
        insert into fediverse_followers (actor_id) values (${ADA}), (${BO})`);
      const [poem] = await database.execute(sql`
        insert into poems (title, slug, stanzas)
        values ('Harbour at Dusk', 'harbour-at-dusk', '["a line / another"]'::jsonb)
        returning id`);
      const poemId = Number(poem?.id);
      await database.execute(sql`
        insert into whispers (poem_id, stanza_index, user_id, text, is_approved, remote_note_id)
        values (${poemId}, '0', ${REMOTE_USER}, 'the tide', true, 'https://elsewhere.example/n/1')`);
      await database.execute(sql`
        insert into echos (poem_id, stanza_index, user_id) values (${poemId}, '0', ${REMOTE_USER})`);
      await database.execute(sql`
        insert into poem_boosts (poem_id, remote_author_id, activity_id)
        values (${poemId}, 7, 'https://elsewhere.example/b/1')`);

      await database.migrate(migrationsFolder);

      const accounts = await database.execute(sql`
        select id, actor_url, user_id, name, inbox, shared_inbox, public_key_id
        from remote_accounts order by id`);
      expect(accounts).toHaveLength(2);
      expect(accounts[0]).toMatchObject({
        id: 7,
        actor_url: ADA,
        user_id: REMOTE_USER,
        // The actor document read last names her so.
        name: "Ada Lovelace",
        inbox: `${ADA}/inbox`,
        shared_inbox: "https://elsewhere.example/inbox",
        public_key_id: `${ADA}#main-key`,
      });
      expect(accounts[1]).toMatchObject({ actor_url: BO, user_id: null, inbox: `${BO}/inbox` });
      expect(Number(accounts[1]?.id)).toBeGreaterThan(7);

      const followers = await database.execute(sql`
        select f.actor_id from fediverse_followers f
        join remote_accounts a on a.actor_url = f.actor_id order by f.actor_id`);
      expect(followers.map((row) => row.actor_id)).toEqual([ADA, BO]);
      const whispers = await database.execute(sql`
        select w.text, a.handle from whispers w join remote_accounts a on a.user_id = w.user_id`);
      expect(whispers).toEqual([{ text: "the tide", handle: "@ada@elsewhere.example" }]);
      const echoes = await database.execute(sql`
        select count(*)::int as n from echos e join remote_accounts a on a.user_id = e.user_id`);
      expect(echoes[0]?.n).toBe(1);
      const boosts = await database.execute(sql`
        select b.remote_account_id from poem_boosts b
        join remote_accounts a on a.id = b.remote_account_id`);
      expect(boosts).toEqual([{ remote_account_id: 7 }]);

      // A new account is numbered after the ones carried over.
      const [made] = await database.execute(sql`
        insert into remote_accounts (actor_url, handle, server)
        values ('https://elsewhere.example/users/cy', '@cy@elsewhere.example', 'elsewhere.example')
        returning id`);
      expect(Number(made?.id)).toBeGreaterThan(Number(accounts[1]?.id));
      for (const gone of ["remote_authors", "remote_actors"]) {
        const [table] = await database.execute(sql`select to_regclass(${gone}) as name`);
        expect(table?.name).toBeNull();
      }
    } finally {
      await database.close();
    }
  });

  it("restores a backup made before it, its remote people in the one table", async () => {
    const database = await openTestDatabase(driver);
    try {
      await database.db.execute(sql`
        insert into users (id, email, name, first_name, is_remote)
        values (${REMOTE_USER}, null, 'Ada', 'Ada', true)`);
      const [poem] = rowsOf(
        await database.db.execute(sql`
          insert into poems (title, slug, stanzas)
          values ('Harbour at Dusk', 'harbour-at-dusk', '["a line"]'::jsonb) returning id`),
      );
      // The same site as a backup from before the migration holds it: Ada an author and a
      // follower who boosted, Bo only a follower.
      const backup = await createBackup(database.db);
      const { tables } = backup;
      const old: Backup = {
        ...backup,
        version: 2,
        tables: {
          ...Object.fromEntries(
            Object.entries(tables).filter(([name]) => name !== "remote_accounts"),
          ),
          remote_authors: [
            {
              id: 7,
              user_id: REMOTE_USER,
              actor_url: ADA,
              handle: "@ada@elsewhere.example",
              name: "Ada",
              server: "elsewhere.example",
              created_at: "2026-11-10T00:00:00+00:00",
              updated_at: "2026-11-10T00:00:00+00:00",
            },
          ],
          remote_actors: [
            {
              id: ADA,
              handle: "@ada@elsewhere.example",
              name: "Ada Lovelace",
              inbox: `${ADA}/inbox`,
              server: "elsewhere.example",
              updated_at: "2026-11-12T00:00:00+00:00",
            },
            {
              id: BO,
              handle: "@bo@elsewhere.example",
              inbox: `${BO}/inbox`,
              server: "elsewhere.example",
              updated_at: "2026-11-11T00:00:00+00:00",
            },
          ],
          fediverse_followers: [
            { actor_id: ADA, created_at: "2026-11-12T00:00:00+00:00" },
            { actor_id: BO, created_at: "2026-11-11T00:00:00+00:00" },
          ],
          poem_boosts: [
            {
              id: 1,
              poem_id: poem?.id,
              remote_author_id: 7,
              activity_id: "https://elsewhere.example/b/1",
              created_at: "2026-11-12T00:00:00+00:00",
            },
          ],
        },
      };
      const restored = await openTestDatabase(driver);
      try {
        await restoreBackup(restored.db, old);
        const accounts = rowsOf(
          await restored.db.execute(
            sql`select id::int, actor_url, user_id, name, inbox from remote_accounts order by id`,
          ),
        );
        expect(
          accounts.map((row) => [Number(row.id), row.actor_url, row.user_id, row.name]),
        ).toEqual([
          [7, ADA, REMOTE_USER, "Ada Lovelace"],
          [8, BO, null, null],
        ]);
        expect(accounts.map((row) => row.inbox)).toEqual([`${ADA}/inbox`, `${BO}/inbox`]);
        const boosts = rowsOf(
          await restored.db.execute(sql`select remote_account_id::int as id from poem_boosts`),
        );
        expect(boosts.map((row) => Number(row.id))).toEqual([7]);
        const followers = rowsOf(
          await restored.db.execute(sql`select count(*)::int as n from fediverse_followers`),
        );
        expect(Number(followers[0]?.n)).toBe(2);
      } finally {
        await restored.close();
      }
    } finally {
      await database.close();
    }
  });
});
