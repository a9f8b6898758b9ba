import { and, count, desc, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { PoemVersion, RemovedStanzaWords } from "../../common/schemas/poems.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { matchStanzas } from "../../common/stanza-matching.ts";
import type { AdminActor } from "../core/actor.ts";
import type { Database, Transaction } from "../db/client.ts";
import { echoes, journalEntries, poems, poemVersions, whispers } from "../db/schema.ts";

/**
 * A poem's history and its readers' words across revisions (docs/decisions/023): each save that
 * changes the title or stanzas keeps the version it replaces, and moves every echo, whisper and
 * journal entry to the stanza its words became, in the save's own transaction.
 */

/** The tables of readers' words on a stanza. */
const READERS_WORDS = [echoes, whispers, journalEntries] as const;

const sameStanzas = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((stanza, index) => stanza === b[index]);

/** Where a group of readers' words is: a stanza of the poem, or one of a version, set aside. */
interface Place {
  stanzaIndex: string;
  removedWithVersionId: number | null;
}

/** A poem's words and the reading that goes with them: what a version keeps and a book prints. */
export const poemReadingColumns = {
  title: poems.title,
  stanzas: poems.stanzas,
  audioUrl: poems.audioUrl,
  stanzaTimings: poems.stanzaTimings,
  readingDuration: poems.readingDuration,
};

/**
 * The version a revision replaces, under the poem's row lock, so saves take turns; undefined
 * for no such poem.
 */
export async function lockVersionToReplace(tx: Transaction, poem: SQL | undefined) {
  const [before] = await tx
    .select({ ...poemReadingColumns, updatedAt: poems.updatedAt })
    .from(poems)
    .where(poem)
    .for("update");
  return before;
}

/**
 * Keeps `before` as a version when the save changes the title or stanzas, and moves readers'
 * words: those on a stanza of `before`, and those set aside earlier, go to the stanza of
 * `stanzas` their words became (stanza-matching.ts); those on a stanza with no counterpart are
 * set aside with the new version. Where two stanzas merge, a reader's duplicate echo or journal
 * entry collapses into one. The caller holds the poem's row lock, so saves take turns.
 */
export async function keepVersion(
  tx: Transaction,
  /** Who replaced it: the admin saving, or the import's poet (null when the operator's CLI ran it). */
  admin: Pick<AdminActor, "id"> | { id: null },
  poemId: number,
  before: { title: string; stanzas: string[]; stanzaTimings: number[] | null; updatedAt: Date },
  after: { title: string; stanzas: string[] },
): Promise<void> {
  const isStanzaChange = !sameStanzas(before.stanzas, after.stanzas);
  if (before.title === after.title && !isStanzaChange) return;
  const [version] = await tx
    .insert(poemVersions)
    .values({
      poemId,
      title: before.title,
      stanzas: before.stanzas,
      stanzaTimings: before.stanzaTimings,
      savedAt: before.updatedAt,
      replacedBy: admin.id,
    })
    .returning({ id: poemVersions.id });
  if (!version || !isStanzaChange) return;

  const setAside = await setAsidePlaces(tx, poemId);
  const earlier: { from: Place; text: string }[] = [
    ...before.stanzas.map((text, index) => ({
      from: { stanzaIndex: String(index), removedWithVersionId: null },
      text,
    })),
    ...setAside,
  ];
  const matches = matchStanzas(
    earlier.map((place) => place.text),
    after.stanzas,
  );
  const moves = earlier.flatMap(({ from }, index): { from: Place; to: Place }[] => {
    const match = matches[index];
    if (match != null)
      return [{ from, to: { stanzaIndex: String(match), removedWithVersionId: null } }];
    // A stanza the save removed: its words are set aside with the version that holds it.
    if (from.removedWithVersionId === null) {
      return [{ from, to: { stanzaIndex: from.stanzaIndex, removedWithVersionId: version.id } }];
    }
    return [];
  });
  if (moves.length === 0) return;
  const mapping = sql.join(
    moves.map(
      ({ from, to }) =>
        sql`(${from.stanzaIndex}::text, ${from.removedWithVersionId}::integer, ${to.stanzaIndex}::text, ${to.removedWithVersionId}::integer)`,
    ),
    sql`, `,
  );
  for (const table of READERS_WORDS) await moveWords(tx, table, poemId, mapping);
}

/** Stanzas of earlier versions that readers' words were set aside on, with their text. */
async function setAsidePlaces(tx: Transaction, poemId: number) {
  const places = new Map<string, Place>();
  for (const table of READERS_WORDS) {
    const rows = await tx
      .selectDistinct({
        stanzaIndex: table.stanzaIndex,
        removedWithVersionId: table.removedWithVersionId,
      })
      .from(table)
      .where(and(eq(table.poemId, poemId), isNotNull(table.removedWithVersionId)));
    for (const row of rows) places.set(`${row.removedWithVersionId}:${row.stanzaIndex}`, row);
  }
  if (places.size === 0) return [];
  const versionIds = [
    ...new Set([...places.values()].map((place) => place.removedWithVersionId ?? 0)),
  ];
  const versions = new Map(
    (
      await tx
        .select({ id: poemVersions.id, stanzas: poemVersions.stanzas })
        .from(poemVersions)
        .where(inArray(poemVersions.id, versionIds))
    ).map((row) => [row.id, row.stanzas]),
  );
  return [...places.values()].flatMap((from) => {
    const text = versions.get(from.removedWithVersionId ?? 0)?.[Number(from.stanzaIndex)];
    return text === undefined ? [] : [{ from, text }];
  });
}

/**
 * Moves one table's rows of the poem by `mapping` (from place to place). A reader's rows that
 * would land on one place (two stanzas merged) collapse into the oldest; the rest move through a
 * key no stanza has, so a swap never meets the unique key half-done.
 */
async function moveWords(
  tx: Transaction,
  table: (typeof READERS_WORDS)[number],
  poemId: number,
  mapping: ReturnType<typeof sql.join>,
) {
  const moving = sql`select t.id, t.user_id, ${"sessionId" in table ? sql`t.session_id` : sql`null`} as session_id,
      m.to_index, m.to_version
    from ${table} t
    join (values ${mapping}) as m(from_index, from_version, to_index, to_version)
      on t.stanza_index = m.from_index
      and t.removed_with_version_id is not distinct from m.from_version
    where t.poem_id = ${poemId}`;
  if (table !== whispers) {
    await tx.execute(sql`delete from ${table} where id in (
      select id from (
        select id, row_number() over (
          partition by user_id, session_id, to_index, to_version order by id
        ) as place from (${moving}) as moving
      ) as ranked where place > 1
    )`);
  }
  await tx.execute(sql`update ${table} set
      stanza_index = '~' || moving.to_index,
      removed_with_version_id = moving.to_version
    from (${moving}) as moving where ${table}.id = moving.id`);
  await tx.execute(sql`update ${table} set stanza_index = substr(stanza_index, 2)
    where poem_id = ${poemId} and stanza_index like '~%'`);
}

/** Readers' words set aside per poem, for the Poems tab and a save's answer. */
export async function countRemovedWords(
  db: Database | Transaction,
  poemIds: number[],
): Promise<Map<number, RemovedStanzaWords>> {
  const counts = new Map<number, RemovedStanzaWords>();
  if (poemIds.length === 0) return counts;
  const keys = {
    echoes: "echoes",
    whispers: "whispers",
    journalEntries: "journalEntries",
  } as const;
  for (const [name, table] of [
    ["echoes", echoes],
    ["whispers", whispers],
    ["journalEntries", journalEntries],
  ] as const) {
    const rows = await db
      .select({ poemId: table.poemId, total: count() })
      .from(table)
      .where(and(inArray(table.poemId, poemIds), isNotNull(table.removedWithVersionId)))
      .groupBy(table.poemId);
    for (const { poemId, total } of rows) {
      const entry = counts.get(poemId) ?? { echoes: 0, whispers: 0, journalEntries: 0 };
      entry[keys[name]] = total;
      counts.set(poemId, entry);
    }
  }
  return counts;
}

export async function listVersions(db: Database, poemId: number): Promise<PoemVersion[]> {
  const rows = await db
    .select({
      id: poemVersions.id,
      title: poemVersions.title,
      stanzas: poemVersions.stanzas,
      savedAt: poemVersions.savedAt,
      replacedAt: poemVersions.replacedAt,
    })
    .from(poemVersions)
    .where(eq(poemVersions.poemId, poemId))
    .orderBy(desc(poemVersions.replacedAt), desc(poemVersions.id));
  return rows.map(({ stanzas, ...version }) => ({
    ...version,
    stanzas,
    stanzaCount: stanzas.length,
    firstLine: stanzaLines(stanzas[0] ?? "")[0]?.trim() ?? "",
  }));
}
