import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { echos, journalEntries, poems, users, whispers } from "../db/schema.ts";
import type { Actor, SessionUser } from "./actor.ts";
import type { ServiceDeps } from "./deps.ts";
import { forbidden, invalid, notFound, unauthorized } from "./errors.ts";
import { RATE_LIMITS, type RateLimiter } from "./rate-limit.ts";

/**
 * A second toggle of the same echo within this time of adding it is a double click, not a change
 * of mind: it leaves the echo in place, so concurrent duplicates always end as exactly one echo.
 */
export const ECHO_DUPLICATE_WINDOW_SECONDS = 1;

export interface WhisperItem {
  id: number;
  userId: string;
  text: string;
  createdAt: Date;
  user: { firstName: string | null; lastName: string | null; profileImageUrl: string | null };
}

function requireUser(actor: Actor): SessionUser {
  if (!actor) throw unauthorized();
  return actor;
}

/** Echoes, whispers and the cloud journal (SPEC.md §2 action row, §4, §7). */
export function createInteractionService({
  db,
  rateLimiter,
}: ServiceDeps & { rateLimiter: RateLimiter }) {
  async function findPoem(slug: string) {
    const [poem] = await db
      .select({ id: poems.id, stanzaCount: sql<number>`jsonb_array_length(${poems.stanzas})` })
      .from(poems)
      .where(eq(poems.slug, slug));
    if (!poem) throw notFound("Poem not found");
    return poem;
  }

  /** The stored form of a stanza index, checked against the poem: '' is the whole poem. */
  function stanzaKey(poem: { stanzaCount: number }, stanzaIndex: number | null): string {
    if (stanzaIndex === null) return "";
    if (stanzaIndex < 0 || stanzaIndex >= poem.stanzaCount) {
      throw invalid(`stanzaIndex must be from 0 to ${poem.stanzaCount - 1}`);
    }
    return String(stanzaIndex);
  }

  const whisperColumns = {
    id: whispers.id,
    userId: whispers.userId,
    text: whispers.text,
    createdAt: whispers.createdAt,
    user: {
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
    },
  };

  return {
    /** Adds or removes the reader's echo in one statement each way; the unique key decides races. */
    async toggleEcho(
      actor: Actor,
      slug: string,
      stanzaIndex: number | null,
    ): Promise<{ added: boolean }> {
      const user = requireUser(actor);
      await rateLimiter.consume(RATE_LIMITS.echoPerUser, user.id);
      const poem = await findPoem(slug);
      const key = stanzaKey(poem, stanzaIndex);
      const mine = and(
        eq(echos.poemId, poem.id),
        eq(echos.stanzaIndex, key),
        eq(echos.userId, user.id),
        isNull(echos.sessionId),
      );
      const removed = await db
        .delete(echos)
        .where(
          and(
            mine,
            sql`${echos.createdAt} < now() - make_interval(secs => ${ECHO_DUPLICATE_WINDOW_SECONDS})`,
          ),
        )
        .returning({ id: echos.id });
      if (removed.length > 0) return { added: false };
      await db
        .insert(echos)
        .values({ poemId: poem.id, stanzaIndex: key, userId: user.id })
        .onConflictDoNothing();
      return { added: true };
    },

    async listEchoCounts(actor: Actor, slug: string) {
      const poem = await findPoem(slug);
      const rows = await db
        .select({
          stanzaIndex: echos.stanzaIndex,
          count: count(),
          userHasEchoed: actor
            ? sql<boolean>`bool_or(${echos.userId} = ${actor.id})`
            : sql<boolean>`false`,
        })
        .from(echos)
        .where(eq(echos.poemId, poem.id))
        .groupBy(echos.stanzaIndex)
        .orderBy(echos.stanzaIndex);
      return rows.map((row) => ({
        ...row,
        count: Number(row.count),
        userHasEchoed: Boolean(row.userHasEchoed),
      }));
    },

    async createWhisper(
      actor: Actor,
      slug: string,
      stanzaIndex: number,
      text: string,
    ): Promise<WhisperItem> {
      const user = requireUser(actor);
      await rateLimiter.consume(RATE_LIMITS.whisperPerUser, user.id);
      const poem = await findPoem(slug);
      const [row] = await db
        .insert(whispers)
        .values({
          poemId: poem.id,
          stanzaIndex: stanzaKey(poem, stanzaIndex),
          userId: user.id,
          text,
        })
        .returning({
          id: whispers.id,
          userId: whispers.userId,
          text: whispers.text,
          createdAt: whispers.createdAt,
        });
      if (!row) throw new Error("whisper insert returned nothing");
      return {
        ...row,
        user: {
          firstName: user.firstName,
          lastName: user.lastName,
          profileImageUrl: user.profileImageUrl,
        },
      };
    },

    /** Approved whispers on one stanza, newest first. */
    async listWhispers(slug: string, stanzaIndex: number): Promise<WhisperItem[]> {
      const poem = await findPoem(slug);
      return db
        .select(whisperColumns)
        .from(whispers)
        .innerJoin(users, eq(users.id, whispers.userId))
        .where(
          and(
            eq(whispers.poemId, poem.id),
            eq(whispers.stanzaIndex, stanzaKey(poem, stanzaIndex)),
            eq(whispers.isApproved, true),
          ),
        )
        .orderBy(desc(whispers.createdAt), desc(whispers.id));
    },

    /** Only its author may delete a whisper. */
    async deleteWhisper(actor: Actor, id: number): Promise<void> {
      const user = requireUser(actor);
      const [whisper] = await db
        .select({ userId: whispers.userId })
        .from(whispers)
        .where(eq(whispers.id, id));
      if (!whisper) throw notFound("Whisper not found");
      if (whisper.userId !== user.id) throw forbidden("You can only delete your own whispers");
      await db.delete(whispers).where(and(eq(whispers.id, id), eq(whispers.userId, user.id)));
    },

    async toggleJournalEntry(
      actor: Actor,
      slug: string,
      stanzaIndex: number,
    ): Promise<{ added: boolean }> {
      const user = requireUser(actor);
      const poem = await findPoem(slug);
      const key = stanzaKey(poem, stanzaIndex);
      const removed = await db
        .delete(journalEntries)
        .where(
          and(
            eq(journalEntries.userId, user.id),
            eq(journalEntries.poemId, poem.id),
            eq(journalEntries.stanzaIndex, key),
          ),
        )
        .returning({ id: journalEntries.id });
      if (removed.length > 0) return { added: false };
      await db
        .insert(journalEntries)
        .values({ userId: user.id, poemId: poem.id, stanzaIndex: key })
        .onConflictDoNothing();
      return { added: true };
    },

    /** Adds without toggling: what syncing the local journal uses, safe to repeat. */
    async addJournalEntry(
      actor: Actor,
      slug: string,
      stanzaIndex: number,
    ): Promise<{ added: boolean }> {
      const user = requireUser(actor);
      const poem = await findPoem(slug);
      const inserted = await db
        .insert(journalEntries)
        .values({ userId: user.id, poemId: poem.id, stanzaIndex: stanzaKey(poem, stanzaIndex) })
        .onConflictDoNothing()
        .returning({ id: journalEntries.id });
      return { added: inserted.length > 0 };
    },

    async listJournal(actor: Actor) {
      const user = requireUser(actor);
      return db
        .select({
          id: journalEntries.id,
          stanzaIndex: journalEntries.stanzaIndex,
          createdAt: journalEntries.createdAt,
          poem: { slug: poems.slug, title: poems.title, stanzas: poems.stanzas },
        })
        .from(journalEntries)
        .innerJoin(poems, eq(poems.id, journalEntries.poemId))
        .where(eq(journalEntries.userId, user.id))
        .orderBy(desc(journalEntries.createdAt), desc(journalEntries.id));
    },

    async listSavedStanzas(actor: Actor, slug: string): Promise<string[]> {
      const user = requireUser(actor);
      const poem = await findPoem(slug);
      const rows = await db
        .select({ stanzaIndex: journalEntries.stanzaIndex })
        .from(journalEntries)
        .where(and(eq(journalEntries.userId, user.id), eq(journalEntries.poemId, poem.id)))
        .orderBy(journalEntries.stanzaIndex);
      return rows.map((row) => row.stanzaIndex);
    },
  };
}

export type InteractionService = ReturnType<typeof createInteractionService>;
