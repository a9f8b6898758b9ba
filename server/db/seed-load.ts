import { sql } from "drizzle-orm";
import type { Database } from "./client.ts";

export interface LoadSize {
  poems: number;
  whispers: number;
  echoes: number;
}

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
    // Each generated echo is a distinct (poem, stanza, reader): the unique key holds.
    await tx.execute(sql`
      with load_poems as (
        select id, row_number() over (order by id) - 1 as position, count(*) over () as total
        from poems where slug like 'load-poem-%'
      ), load_readers as (
        select id, row_number() over (order by id) - 1 as position
        from users where email like 'load-reader-%'
      )
      insert into echos (poem_id, stanza_index, user_id)
      select p.id, ((n / p.total) % ${STANZAS_PER_POEM})::text, r.id
      from generate_series(0, ${size.echoes} - 1) as n
      join load_poems p on p.position = n % p.total
      join load_readers r on r.position = (n / (p.total * ${STANZAS_PER_POEM})) % ${LOAD_READERS}
      on conflict do nothing`);
    await tx.execute(sql`
      with load_poems as (
        select id, row_number() over (order by id) - 1 as position, count(*) over () as total
        from poems where slug like 'load-poem-%'
      ), load_readers as (
        select id, row_number() over (order by id) - 1 as position
        from users where email like 'load-reader-%'
      )
      insert into whispers (poem_id, stanza_index, user_id, text, created_at)
      select p.id, (n % ${STANZAS_PER_POEM})::text, r.id, 'Generated whisper ' || n,
             now() - make_interval(secs => n)
      from generate_series(0, ${size.whispers} - 1) as n
      join load_poems p on p.position = (n / ${STANZAS_PER_POEM}) % p.total
      join load_readers r on r.position = n % ${LOAD_READERS}`);
  });
  return `seeded up to ${size.poems} poems, ${size.whispers} whispers and ${size.echoes} echoes`;
}
