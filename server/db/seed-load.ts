import { sql } from "drizzle-orm";
import * as pages from "../../common/pages.ts";
import { prefixOf } from "../../common/path-builder.ts";
import * as paths from "../../common/paths.ts";
import type { Database, Transaction } from "./client.ts";

const POEM_PATH_PREFIX = prefixOf(pages.poem);

export interface LoadSize {
  poems: number;
  whispers: number;
  echoes: number;
  /** Days of counted readings (docs/decisions/049) back from today, for the insights' queries. */
  insightDays?: number;
}

/** Generated poems with views on each generated day, and with a reading curve. */
const POEMS_VIEWED_A_DAY = 300;
const POEMS_READ_A_DAY = 100;
const SOURCES_A_DAY = 20;
/** The demo poem whose own insights the scale bench reads: counted every day. */
const INSIGHTS_POEM = "the-kitchen-table";

/** Readers who write the generated whispers and echoes. */
const LOAD_READERS = 1_000;
const STANZAS_PER_POEM = 4;

/**
 * Fills a database with generated poems, whispers and echoes for load and scale measurements
 * (`npm run cli -- seed-load`), in set-based statements so a million rows take seconds. Rows are
 * added beside whatever is there; poem slugs start with "load-".
 */
export async function seedLoad(db: Database, size: LoadSize): Promise<string> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into users (email, name)
      select 'load-reader-' || n || '@example.com', 'Load Reader ' || n
      from generate_series(1, ${LOAD_READERS}) as n
      on conflict (email) do nothing`);
    await tx.execute(sql`insert into tags (name) values ('Load') on conflict (name) do nothing`);
    await tx.execute(sql`
      insert into poems (title, slug, stanzas, created_at, updated_at)
      select 'Load Poem ' || n, 'load-poem-' || n,
             jsonb_build_array('first line ' || n || ' / second line', 'another / stanza',
                               'a third / stanza here', 'the last / stanza'),
             now() - make_interval(mins => n), now()
      from generate_series(1, ${size.poems}) as n
      on conflict (slug) do nothing`);
    await tx.execute(sql`
      insert into poem_tags (poem_id, tag_id)
      select p.id, t.id from poems p, tags t
      where p.slug like 'load-poem-%' and t.name = 'Load'
      on conflict do nothing`);
    // Positions are numbered first, so each generated row finds its poem and reader by an
    // equality join (hashed), never by a comparison against every poem.
    const numbered = sql`
      load_poems as (
        select id, row_number() over (order by id) - 1 as position
        from poems where slug like 'load-poem-%'
      ),
      poem_total as (select greatest(count(*), 1) as total from load_poems),
      load_readers as (
        select id, row_number() over (order by id) - 1 as position
        from users where email like 'load-reader-%'
      )`;
    // Each generated echo is a distinct (poem, stanza, reader): the unique key holds.
    await tx.execute(sql`
      with ${numbered}, series as (
        select n % total as poem_position, (n / total) % ${STANZAS_PER_POEM} as stanza,
               (n / (total * ${STANZAS_PER_POEM})) % ${LOAD_READERS} as reader_position
        from generate_series(0, ${size.echoes} - 1) as n, poem_total
      )
      insert into echos (poem_id, stanza_index, user_id)
      select p.id, s.stanza::text, r.id
      from series s
      join load_poems p on p.position = s.poem_position
      join load_readers r on r.position = s.reader_position
      on conflict do nothing`);
    await tx.execute(sql`
      with ${numbered}, series as (
        select n, (n / ${STANZAS_PER_POEM}) % total as poem_position,
               n % ${LOAD_READERS} as reader_position
        from generate_series(0, ${size.whispers} - 1) as n, poem_total
      )
      insert into whispers (poem_id, stanza_index, user_id, text, created_at)
      select p.id, (s.n % ${STANZAS_PER_POEM})::text, r.id, 'Generated whisper ' || s.n,
             now() - make_interval(secs => s.n::int)
      from series s
      join load_poems p on p.position = s.poem_position
      join load_readers r on r.position = s.reader_position`);
    await seedInsights(tx, size.insightDays ?? 0);
  });
  return `seeded up to ${size.poems} poems, ${size.whispers} whispers, ${size.echoes} echoes and ${size.insightDays ?? 0} days of counts`;
}

/**
 * A year (by default) of daily counts as counting writes them: the site's views and visitors,
 * POEMS_VIEWED_A_DAY poems viewed a day, SOURCES_A_DAY sources, POEMS_READ_A_DAY reading curves,
 * and INSIGHTS_POEM counted every day.
 */
async function seedInsights(tx: Transaction, days: number) {
  if (days === 0) return;
  const daysBack = sql`generate_series(0, ${days} - 1) as d`;
  const insert = sql`insert into daily_counts (day, metric, subject, part, count)`;
  await tx.execute(sql`
    ${insert}
    select current_date - d, m.metric, '', '', 100 + (d * 7) % 50
    from ${daysBack} cross join (values ('views'), ('visitors')) as m(metric)
    on conflict do nothing`);
  await tx.execute(sql`
    ${insert}
    select current_date - d, 'source', 'site:source-' || k || '.example', '', 1 + (d + k) % 9
    from ${daysBack} cross join generate_series(1, ${SOURCES_A_DAY}) as k
    on conflict do nothing`);
  const numbered = sql`
    load_poems as (
      select slug, row_number() over (order by id) - 1 as position
      from poems where slug like 'load-poem-%'
    ),
    poem_total as (select greatest(count(*), 1) as total from load_poems)`;
  await tx.execute(sql`
    with ${numbered}
    ${insert}
    select current_date - d, m.metric, ${POEM_PATH_PREFIX}::text || p.slug, '', 1 + (d + k) % 20
    from ${daysBack}
      cross join generate_series(0, ${POEMS_VIEWED_A_DAY} - 1) as k
      cross join poem_total
      cross join (values ('views'), ('visitors')) as m(metric)
      join load_poems p on p.position = (d * 37 + k) % poem_total.total
    on conflict do nothing`);
  await tx.execute(sql`
    with ${numbered}
    ${insert}
    select current_date - d, m.metric, p.slug, m.part, 1 + (d + k) % 10
    from ${daysBack}
      cross join generate_series(0, ${POEMS_READ_A_DAY} - 1) as k
      cross join poem_total
      cross join (values ('readings', ''), ('reached', '0'), ('reached', '1'), ('reached', '2'),
                         ('reached', '3'), ('shares', '1')) as m(metric, part)
      join load_poems p on p.position = (d * 53 + k) % poem_total.total
    on conflict do nothing`);
  await tx.execute(sql`
    ${insert}
    select current_date - d, m.metric, m.subject, m.part, 1 + d % 12
    from ${daysBack}
      cross join (values ('views', ${paths.poem(INSIGHTS_POEM)}::text, ''),
                         ('visitors', ${paths.poem(INSIGHTS_POEM)}::text, ''),
                         ('readings', '${sql.raw(INSIGHTS_POEM)}', ''),
                         ('reached', '${sql.raw(INSIGHTS_POEM)}', '0'),
                         ('reached', '${sql.raw(INSIGHTS_POEM)}', '1'),
                         ('reached', '${sql.raw(INSIGHTS_POEM)}', '2'),
                         ('reached', '${sql.raw(INSIGHTS_POEM)}', '3'),
                         ('preview:Mastodon', '${sql.raw(INSIGHTS_POEM)}', '0'))
        as m(metric, subject, part)
    on conflict do nothing`);
}
