import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { EchoCount } from "../../common/schemas/interactions.ts";
import type { Actor, SessionUser } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import type { Database } from "../db/client.ts";
import { echoes } from "../db/schema.ts";
import { onPoemStanzas } from "../db/visibility.ts";
import {
  type InteractionMemory,
  type KnownPoem,
  requireUnblockedUser,
  stanzaKey,
  storedKey,
} from "./interaction-memory.ts";

/** A reader's echo on a stanza or a whole poem, and the counts every reader sees. */
export function readerEchoes(
  { db, rateLimiter }: Pick<ServiceDeps, "db"> & { rateLimiter: RateLimiter },
  memory: InteractionMemory,
) {
  const { sharedEchoCounts, echoedByReader, readerMarkKey, findPoem, runToggle } = memory;
  return {
    /** Removes the reader's echo, or adds it when there is none (`runToggle`, decision 015). */
    async toggleEcho(
      actor: Actor,
      slug: string,
      stanzaIndex: number | null,
    ): Promise<{ added: boolean }> {
      const user = requireUnblockedUser(actor);
      await rateLimiter.consume(RATE_LIMITS.echoPerUser, user.id);
      const poem = await findPoem(actor, slug);
      const key = stanzaKey(poem, stanzaIndex);
      // One statement: remove the reader's echo, or add it when there was none to remove.
      const toggle = sql`
        with removed as (
          delete from ${echoes}
          where ${and(
            eq(echoes.poemId, poem.id),
            eq(echoes.stanzaIndex, key),
            eq(echoes.userId, user.id),
            isNull(echoes.sessionId),
            onPoemStanzas(echoes),
          )}
          returning 1
        ), added as (
          insert into ${echoes} (poem_id, stanza_index, user_id)
          select ${poem.id}, ${key}, ${user.id}
          where not exists (select 1 from removed)
          on conflict do nothing
          returning 1
        )
        select (select count(*) from removed)::int as removed,
               (select count(*) from added)::int as added`;
      try {
        return await runToggle(slug, "toggle_echo", toggle);
      } finally {
        // After each write: readings taken before it are not served again.
        sharedEchoCounts.forget(String(poem.id));
        echoedByReader?.forget(readerMarkKey(user, poem));
      }
    },

    /**
     * Per stanza: how many echoes, and whether this reader's is one of them. The counts are one
     * reading shared by every reader (SHARED_ECHO_COUNTS_LIFE_MS); a signed-in reader's own
     * echoes come from memory where this instance owns the database, else with the counts in
     * one query of their own.
     */
    async listEchoCounts(actor: Actor, slug: string): Promise<EchoCount[]> {
      const poem = await findPoem(actor, slug);
      if (actor && !echoedByReader) return readEchoCounts(db, poem, actor);
      const [counts, echoed] = await Promise.all([
        sharedEchoCounts.get(String(poem.id), () => readEchoCounts(db, poem, null)),
        actor &&
          echoedByReader?.get(readerMarkKey(actor, poem), () => readEchoedStanzas(db, actor, poem)),
      ]);
      if (!echoed) return counts;
      return counts.map((row) => ({
        ...row,
        userHasEchoed: echoed.has(storedKey(row.stanzaIndex)),
      }));
    },
  };
}

/** Echoes per stanza of a poem; with a reader, whether theirs is one of them. */
async function readEchoCounts(
  db: Database,
  poem: KnownPoem,
  reader: SessionUser | null,
): Promise<EchoCount[]> {
  const rows = await db
    .select({
      stanzaIndex: echoes.stanzaIndex,
      count: count(),
      userHasEchoed: reader
        ? sql<boolean>`bool_or(${echoes.userId} = ${reader.id})`
        : sql<boolean>`false`,
    })
    .from(echoes)
    .where(and(eq(echoes.poemId, poem.id), onPoemStanzas(echoes)))
    .groupBy(echoes.stanzaIndex)
    .orderBy(echoes.stanzaIndex);
  return rows.map((row) => ({
    stanzaIndex: row.stanzaIndex === "" ? null : Number(row.stanzaIndex),
    count: Number(row.count),
    userHasEchoed: Boolean(row.userHasEchoed),
  }));
}

/** The stored stanza keys ('' for the whole poem) of the reader's echoes on a poem. */
async function readEchoedStanzas(
  db: Database,
  reader: SessionUser,
  poem: KnownPoem,
): Promise<Set<string>> {
  const rows = await db
    .select({ stanzaIndex: echoes.stanzaIndex })
    .from(echoes)
    .where(and(eq(echoes.poemId, poem.id), eq(echoes.userId, reader.id), onPoemStanzas(echoes)));
  return new Set(rows.map((row) => row.stanzaIndex));
}
