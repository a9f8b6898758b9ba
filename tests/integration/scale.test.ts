import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLoad } from "../../server/db/seed-load.ts";
import { drivers, rowsOf } from "../helpers/database.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * The reads a viral stanza hits, on a database of generated content: each is answered through an
 * index, never by reading a whole table. Sequential scans are switched off for the EXPLAIN, so a
 * plan that still scans a table means no index can serve the query. The statements are the
 * services' own shapes (poems.getPoem, interactions.listWhispers and listEchoCounts,
 * poems.listPoems' first page, search.find's poems and embers).
 */
/** search.find's two poem queries: title matches, then matches in the stanzas alone. */
const searchedPoems = (where: "title" | "stanzas", words: string) => {
  const query = sql`public.search_query(${words})`;
  const isTitleMatch = sql`title_search_vector @@ ${query}`;
  return sql`select slug, title, stanzas from poems
    where ${where === "title" ? isTitleMatch : sql`search_vector @@ ${query} and not (${isTitleMatch})`}
      and not draft and publish_at <= now()
    order by publish_at desc, id desc limit 10`;
};

const HOT_READS: Record<string, (poemId: number) => ReturnType<typeof sql>> = {
  "a poem by its slug": () => sql`select * from poems where slug = 'load-poem-7'`,
  "a stanza's approved whispers, newest first": (poemId) =>
    sql`select w.id, w.text from whispers w join users u on u.id = w.user_id
        where w.poem_id = ${poemId} and w.stanza_index = '1' and w.is_approved
        order by w.created_at desc`,
  "a poem's echo counts per stanza": (poemId) =>
    sql`select stanza_index, count(*) from echos where poem_id = ${poemId} group by stanza_index`,
  "the first page of poems": () =>
    sql`select * from poems where not draft and publish_at <= now()
        order by publish_at desc, id desc limit 25`,
  "poems whose title holds a searched word, newest first": () => searchedPoems("title", "poem"),
  "poems whose stanzas hold a searched word, newest first": () =>
    searchedPoems("stanzas", "first line 4242"),
  "embers holding a searched word, newest first": () =>
    sql`select id, date, text from embers
        where search_vector @@ public.search_query('burning') and date <= now()
        order by date desc limit 10`,
};

describe.each(drivers)("reads at scale on %s", (driver) => {
  let t: TestApp;
  let poemId: number;

  beforeAll(async () => {
    t = await createTestApp(driver);
    await seedLoad(t.db, { poems: 10_000, whispers: 20_000, echoes: 50_000 });
    await t.db.execute(sql`analyze`);
    const [row] = rowsOf(await t.db.execute(sql`select id from poems where slug = 'load-poem-7'`));
    poemId = Number(row?.id);
  });
  afterAll(() => t.close());

  it("generated the content it was asked for", async () => {
    const [counts] = rowsOf(
      await t.db.execute(sql`select (select count(*) from poems) as poems,
        (select count(*) from whispers) as whispers, (select count(*) from echos) as echoes`),
    );
    expect(Object.values(counts ?? {}).map(Number)).toEqual([10_000, 20_000, 50_000]);
  });

  it.each(Object.keys(HOT_READS))("reads %s through an index", async (name) => {
    const query = HOT_READS[name];
    if (!query) throw new Error(name);
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf(await tx.execute(sql`explain ${query(poemId)}`))
        .map((row) => Object.values(row)[0])
        .join("\n");
    });
    expect(plan, plan).not.toMatch(/Seq Scan on (poems|whispers|echos|embers)/);
  });

  it("searches 10,000 poems as fast for a word in all of them as for a rare one", async () => {
    const explain = async (query: ReturnType<typeof sql>) =>
      rowsOf(await t.db.execute(sql`explain analyze ${query}`))
        .map((row) => Object.values(row)[0])
        .join("\n");
    // A rare word: each query reads its own GIN index.
    expect(await explain(searchedPoems("title", "4242"))).toMatch(
      /Bitmap Index Scan on poems_title_search_vector_idx/,
    );
    expect(await explain(searchedPoems("stanzas", "first line 4242"))).toMatch(
      /Bitmap Index Scan on poems_search_vector_idx/,
    );
    // A word in every poem: the newest ten are read off the list's index, not all 10,000 ranked.
    const common = await explain(searchedPoems("stanzas", "stanzas"));
    expect(common, common).toMatch(/Index Scan using poems_newest_published_idx/);
    expect(common, common).not.toMatch(/Sort/);
    const { poems } = await t.services.search.find("load poem 4242", 10);
    expect(poems.map((poem) => poem.slug)).toEqual(["load-poem-4242"]);
  });

  it("pages the poem list instead of answering all of them", async () => {
    const page = await (await t.app.request("/api/poems?limit=24&offset=24")).json();
    expect(page).toHaveLength(24);
    const bad = await t.app.request("/api/poems?limit=1000");
    expect(bad.status).toBe(400);
  });
});
