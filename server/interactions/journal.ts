import { and, desc, eq, sql } from "drizzle-orm";
import type { JournalEntry } from "../../common/schemas/interactions.ts";
import { audienceOf } from "../../common/session.ts";
import type { Actor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { journalEntries, poems } from "../db/schema.ts";
import { onPoemStanzas, readablePoems } from "../db/visibility.ts";
import { type InteractionMemory, requireUser, stanzaKey } from "./interaction-memory.ts";

/** The signed-in reader's cloud journal: the stanzas they saved, and the local journal synced in. */
export function cloudJournal(deps: Pick<ServiceDeps, "db" | "now">, memory: InteractionMemory) {
  return { ...journalSaves(deps, memory), ...journalReads(deps, memory) };
}

/** A stanza saved or taken out by the reader, and the local journal's entries synced in. */
function journalSaves({ db }: Pick<ServiceDeps, "db">, memory: InteractionMemory) {
  const { savedByReader, readerMarkKey, findPoem, onPoem, runToggle } = memory;
  return {
    /**
     * Removes the stanza from the reader's journal, or saves it when it is not there, as the echo
     * toggles (`runToggle`, decision 015).
     */
    async toggleJournalEntry(
      actor: Actor,
      slug: string,
      stanzaIndex: number,
    ): Promise<{ added: boolean }> {
      const user = requireUser(actor);
      const poem = await findPoem(actor, slug);
      const key = stanzaKey(poem, stanzaIndex);
      const toggle = sql`
        with removed as (
          delete from ${journalEntries}
          where ${and(
            eq(journalEntries.userId, user.id),
            eq(journalEntries.poemId, poem.id),
            eq(journalEntries.stanzaIndex, key),
            onPoemStanzas(journalEntries),
          )}
          returning 1
        ), added as (
          insert into ${journalEntries} (user_id, poem_id, stanza_index)
          select ${user.id}, ${poem.id}, ${key}
          where not exists (select 1 from removed)
          on conflict do nothing
          returning 1
        )
        select (select count(*) from removed)::int as removed,
               (select count(*) from added)::int as added`;
      try {
        return await runToggle(slug, "toggle_journal_entry", toggle);
      } finally {
        savedByReader?.forget(readerMarkKey(user, poem));
      }
    },

    /** Adds without toggling: what syncing the local journal uses, safe to repeat. */
    async addJournalEntry(
      actor: Actor,
      slug: string,
      stanzaIndex: number,
    ): Promise<{ added: boolean }> {
      const user = requireUser(actor);
      const poem = await findPoem(actor, slug);
      const key = stanzaKey(poem, stanzaIndex);
      const inserted = await onPoem(slug, () =>
        db
          .insert(journalEntries)
          .values({ userId: user.id, poemId: poem.id, stanzaIndex: key })
          .onConflictDoNothing()
          .returning({ id: journalEntries.id }),
      ).finally(() => savedByReader?.forget(readerMarkKey(user, poem)));
      return { added: inserted.length > 0 };
    },
  };
}

/** The journal page, and which stanzas of a poem the reader has saved. */
function journalReads({ db, now }: Pick<ServiceDeps, "db" | "now">, memory: InteractionMemory) {
  const { savedByReader, readerMarkKey, findPoem } = memory;
  return {
    async listJournal(actor: Actor): Promise<JournalEntry[]> {
      const user = requireUser(actor);
      const rows = await db
        .select({
          id: journalEntries.id,
          stanzaIndex: journalEntries.stanzaIndex,
          createdAt: journalEntries.createdAt,
          poem: { slug: poems.slug, title: poems.title, stanzas: poems.stanzas },
        })
        .from(journalEntries)
        .innerJoin(poems, eq(poems.id, journalEntries.poemId))
        .where(
          and(
            eq(journalEntries.userId, user.id),
            onPoemStanzas(journalEntries),
            readablePoems(audienceOf(user), now()),
          ),
        )
        .orderBy(desc(journalEntries.createdAt), desc(journalEntries.id));
      return rows.map((row) => ({ ...row, stanzaIndex: Number(row.stanzaIndex) }));
    },

    async listSavedStanzas(actor: Actor, slug: string): Promise<number[]> {
      const user = requireUser(actor);
      const poem = await findPoem(actor, slug);
      const read = () =>
        db
          .select({ stanzaIndex: journalEntries.stanzaIndex })
          .from(journalEntries)
          .where(
            and(
              eq(journalEntries.userId, user.id),
              eq(journalEntries.poemId, poem.id),
              onPoemStanzas(journalEntries),
            ),
          )
          .orderBy(journalEntries.stanzaIndex)
          .then((rows) => rows.map((row) => Number(row.stanzaIndex)));
      return savedByReader ? savedByReader.get(readerMarkKey(user, poem), read) : read();
    },
  };
}
