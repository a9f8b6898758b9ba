import { and, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import { shownLastName } from "../../common/display-name.ts";
import { READER_BLOCKED_MESSAGE } from "../../common/schemas/account.ts";
import type {
  EchoCount,
  FediverseOrigin,
  JournalEntry,
  SharedWhisper,
  Whisper,
} from "../../common/schemas/interactions.ts";
import { audienceOf } from "../../common/session.ts";
import type { Actor, SessionUser } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import {
  forbidden,
  invalid,
  isForeignKeyViolation,
  notFound,
  unauthorized,
} from "../core/errors.ts";
import { createMemo } from "../core/memo.ts";
import { RATE_LIMITS, type RateLimiter } from "../core/rate-limit.ts";
import { executeNamed } from "../db/client.ts";
import {
  echoes,
  journalEntries,
  poems,
  remoteAccounts,
  siteSettings,
  users,
  whispers,
} from "../db/schema.ts";
import { isLive, isReadable, onPoemStanzas, readablePoems } from "../db/visibility.ts";

/**
 * How long readers share one reading of a poem's echo counts. Every reader of a shared stanza
 * asks for them once the page has loaded; a count a second old is invisible to a reader, and one
 * query per poem per second instead of one per reader is what lets a spike through. A write
 * through this instance is seen at once.
 */
export const SHARED_ECHO_COUNTS_LIFE_MS = 1000;
/** Poems whose counts are kept at once. */
const SHARED_ECHO_COUNTS_REMEMBERED = 1000;
/** Poems (and unknown slugs) remembered at once. */
const POEMS_REMEMBERED = 10_000;
/** Readers' marks (echoed or saved stanzas) on one poem each, remembered at once. */
const READER_MARKS_REMEMBERED = 50_000;

interface KnownPoem {
  id: number;
  draft: boolean;
  publishAt: Date;
  deletedAt: Date | null;
  stanzaCount: number;
}

function requireUser(actor: Actor): SessionUser {
  if (!actor) throw unauthorized();
  return actor;
}

/** Echoes and whispers: a reader the poet has blocked is refused (decision 041). */
function requireUnblockedUser(actor: Actor): SessionUser {
  const user = requireUser(actor);
  if (user.isBlocked) throw forbidden(READER_BLOCKED_MESSAGE);
  return user;
}

/** Echoes, whispers and the cloud journal (docs/product/interactions.md). */
export function createInteractionService({
  db,
  now,
  ownsDatabase,
  rateLimiter,
}: ServiceDeps & { rateLimiter: RateLimiter }) {
  /**
   * Poems as interactions need them, by slug (undefined: no such poem), kept until content
   * changes (`contentChanged`): a spike of echoes and whispers asks the database nothing it has
   * answered already. Who may see each is decided on every call, so a scheduled poem opens to
   * readers at its time without a change.
   */
  const poemsBySlug = createMemo<KnownPoem | undefined>({ maxEntries: POEMS_REMEMBERED });
  /** Every reader's echoes per stanza of a poem, by poem id (SHARED_ECHO_COUNTS_LIFE_MS). */
  const sharedEchoCounts = createMemo<EchoCount[]>({
    maxEntries: SHARED_ECHO_COUNTS_REMEMBERED,
    lifeMs: SHARED_ECHO_COUNTS_LIFE_MS,
  });
  /**
   * Where this instance owns the database, each reader's echoed and saved stanzas of a poem,
   * kept until they change them here, the only place they can (decision 025). On a shared
   * database they are read each time: the reader's last write may have gone to another instance.
   */
  const echoedByReader = ownsDatabase
    ? createMemo<Set<string>>({ maxEntries: READER_MARKS_REMEMBERED })
    : undefined;
  const savedByReader = ownsDatabase
    ? createMemo<number[]>({ maxEntries: READER_MARKS_REMEMBERED })
    : undefined;
  const readerMarkKey = (user: SessionUser, poem: KnownPoem) => `${user.id} ${poem.id}`;

  /** The poem by its slug as last read (undefined: none), whoever may see it. */
  const knownPoem = (slug: string) =>
    poemsBySlug.get(slug, () =>
      db
        .select({
          id: poems.id,
          draft: poems.draft,
          publishAt: poems.publishAt,
          deletedAt: poems.deletedAt,
          stanzaCount: sql<number>`jsonb_array_length(${poems.stanzas})`,
        })
        .from(poems)
        .where(eq(poems.slug, slug))
        .then(([found]) => found),
    );

  /** The poem, if the actor may see it now: echoes and whispers on a poem nobody may read are 404. */
  async function findPoem(actor: Actor, slug: string): Promise<KnownPoem> {
    const poem = await knownPoem(slug);
    if (!poem || !isReadable(poem, audienceOf(actor), now())) throw notFound("Poem not found");
    return poem;
  }

  /**
   * Runs a write on a poem found in memory. Another instance may have deleted the poem a moment
   * before this one heard of it: the write then meets no poem, which is a 404, not a 500.
   */
  async function onPoem<T>(slug: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      poemsBySlug.forget(slug);
      throw notFound("Poem not found");
    }
  }

  /**
   * Runs a toggle written as one statement that deletes the reader's row or, when there was none,
   * inserts it, and answers what it changed (decision 015). Each answer is the row this request
   * itself deleted or inserted, so after any burst the stored rows equal the `added: true`
   * answers less the `added: false` ones. When a concurrent toggle added the row this one found
   * missing, neither changed anything and the toggle starts again.
   */
  async function runToggle(slug: string, name: string, toggle: SQL): Promise<{ added: boolean }> {
    for (;;) {
      const [changed] = await onPoem(slug, () =>
        executeNamed<{ removed: number; added: number }>(db, name, toggle),
      );
      if (changed?.added) return { added: true };
      if (changed?.removed) return { added: false };
    }
  }

  const storedKey = (stanzaIndex: number | null) =>
    stanzaIndex === null ? "" : String(stanzaIndex);

  /** The stored form of a stanza index, checked against the poem: '' is the whole poem. */
  function stanzaKey(poem: { stanzaCount: number }, stanzaIndex: number | null): string {
    if (stanzaIndex !== null && (stanzaIndex < 0 || stanzaIndex >= poem.stanzaCount)) {
      throw invalid(`stanzaIndex must be from 0 to ${poem.stanzaCount - 1}`);
    }
    return storedKey(stanzaIndex);
  }

  /** A whisper's own columns, as its insert returns them. */
  const ownWhisperColumns = {
    id: whispers.id,
    userId: whispers.userId,
    text: whispers.text,
    createdAt: whispers.createdAt,
  };
  const whisperColumns = {
    ...ownWhisperColumns,
    user: {
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
    },
    remote: {
      name: remoteAccounts.name,
      handle: remoteAccounts.handle,
      server: remoteAccounts.server,
      profileUrl: remoteAccounts.profileUrl,
      postUrl: whispers.remoteUrl,
      isCut: sql<boolean>`${whispers.fullText} is not null`,
    },
  };

  /**
   * Prepared once: each connection then only binds and executes it (decision 026). While the
   * poet holds new whispers for approval (site settings), the whisper is stored hidden, the state
   * an admin's Approve changes; the insert reads the setting itself, so it is exact on every
   * instance and costs no statement of its own.
   */
  const insertWhisper = db
    .insert(whispers)
    .values({
      poemId: sql.placeholder("poemId"),
      stanzaIndex: sql.placeholder("stanzaIndex"),
      userId: sql.placeholder("userId"),
      text: sql.placeholder("text"),
      isApproved: sql`not coalesce((select ${siteSettings.holdWhispers} from ${siteSettings}), false)`,
      isAwaitingApproval: sql`coalesce((select ${siteSettings.holdWhispers} from ${siteSettings}), false)`,
    })
    .returning({ ...ownWhisperColumns, isApproved: whispers.isApproved })
    .prepare("insert_whisper");

  /** Echoes per stanza of a poem; with a reader, whether theirs is one of them. */
  async function readEchoCounts(poem: KnownPoem, reader: SessionUser | null): Promise<EchoCount[]> {
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
  async function readEchoedStanzas(reader: SessionUser, poem: KnownPoem): Promise<Set<string>> {
    const rows = await db
      .select({ stanzaIndex: echoes.stanzaIndex })
      .from(echoes)
      .where(and(eq(echoes.poemId, poem.id), eq(echoes.userId, reader.id), onPoemStanzas(echoes)));
    return new Set(rows.map((row) => row.stanzaIndex));
  }

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
      if (actor && !echoedByReader) return readEchoCounts(poem, actor);
      const [counts, echoed] = await Promise.all([
        sharedEchoCounts.get(String(poem.id), () => readEchoCounts(poem, null)),
        actor &&
          echoedByReader?.get(readerMarkKey(actor, poem), () => readEchoedStanzas(actor, poem)),
      ]);
      if (!echoed) return counts;
      return counts.map((row) => ({
        ...row,
        userHasEchoed: echoed.has(storedKey(row.stanzaIndex)),
      }));
    },

    /**
     * The poem any reader may see now under this slug, with its stanza count, or null: what a
     * reply or a like from the fediverse may answer. Read from memory, as for echoes and whispers.
     */
    async publishedPoem(slug: string): Promise<{ id: number; stanzaCount: number } | null> {
      const poem = await knownPoem(slug);
      return poem && isReadable(poem, "anonymous", now()) ? poem : null;
    },

    /** Content changed (a poem renamed, revised, rescheduled or deleted): read it all afresh. */
    contentChanged() {
      poemsBySlug.clear();
      sharedEchoCounts.clear();
      echoedByReader?.clear();
      savedByReader?.clear();
    },

    /**
     * Echoes on a poem were written elsewhere than a reader's toggle (a like from the fediverse,
     * decision 046): readings taken before are not served again here.
     */
    echoesWritten(poemId: number) {
      sharedEchoCounts.forget(String(poemId));
    },

    /** A reader's account was deleted: the counts (and any marks) held here are read afresh. */
    readerRemoved() {
      sharedEchoCounts.clear();
      echoedByReader?.clear();
      savedByReader?.clear();
    },

    async createWhisper(
      actor: Actor,
      slug: string,
      stanzaIndex: number,
      text: string,
    ): Promise<SharedWhisper> {
      const user = requireUnblockedUser(actor);
      await rateLimiter.consume(RATE_LIMITS.whisperPerUser, user.id);
      const poem = await findPoem(actor, slug);
      const key = stanzaKey(poem, stanzaIndex);
      const [row] = await onPoem(slug, () =>
        insertWhisper.execute({ poemId: poem.id, stanzaIndex: key, userId: user.id, text }),
      );
      if (!row) throw new Error("whisper insert returned nothing");
      return {
        ...row,
        user: {
          firstName: user.firstName,
          lastName: user.lastName,
          profileImageUrl: user.profileImageUrl,
        },
        fediverse: null,
      };
    },

    /**
     * Approved whispers on one stanza, newest first, but none of a blocked reader's; a reply
     * from the fediverse with where it came from (decision 046). The reader's own whispers that
     * await the poet's approval are among them, marked so, for that reader only (decision 057).
     */
    async listWhispers(actor: Actor, slug: string, stanzaIndex: number): Promise<Whisper[]> {
      const poem = await findPoem(actor, slug);
      const isShown = actor
        ? or(
            eq(whispers.isApproved, true),
            and(eq(whispers.isAwaitingApproval, true), eq(whispers.userId, actor.id)),
          )
        : eq(whispers.isApproved, true);
      const rows = await db
        .select({ ...whisperColumns, isAwaitingApproval: whispers.isAwaitingApproval })
        .from(whispers)
        .innerJoin(users, eq(users.id, whispers.userId))
        .leftJoin(remoteAccounts, eq(remoteAccounts.userId, whispers.userId))
        .where(
          and(
            eq(whispers.poemId, poem.id),
            eq(whispers.stanzaIndex, stanzaKey(poem, stanzaIndex)),
            isShown,
            isNull(users.blockedAt),
            onPoemStanzas(whispers),
          ),
        )
        .orderBy(desc(whispers.createdAt), desc(whispers.id));
      // Everyone may read this list: the name as the page shows it, never the whole surname.
      return rows.map(({ remote, user, isAwaitingApproval, ...row }) => ({
        ...row,
        user: { ...user, lastName: shownLastName(user.firstName, user.lastName) },
        fediverse: fediverseOrigin(remote),
        ...(isAwaitingApproval ? { isAwaitingApproval } : {}),
      }));
    },

    /** Only its author may delete a whisper. */
    async deleteWhisper(actor: Actor, id: number): Promise<void> {
      const user = requireUser(actor);
      // A whisper on a deleted poem is kept with it, for a restore, and nobody's to delete.
      const [whisper] = await db
        .select({ userId: whispers.userId })
        .from(whispers)
        .innerJoin(poems, eq(poems.id, whispers.poemId))
        .where(and(eq(whispers.id, id), isLive(poems)));
      if (!whisper) throw notFound("Whisper not found");
      if (whisper.userId !== user.id) throw forbidden("You can only delete your own whispers");
      await db.delete(whispers).where(and(eq(whispers.id, id), eq(whispers.userId, user.id)));
    },

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

export type InteractionService = ReturnType<typeof createInteractionService>;

/** A whisper's fediverse origin from its left-joined remote author: null for a reader's. */
export function fediverseOrigin(remote: {
  name: string | null;
  handle: string | null;
  server: string | null;
  profileUrl: string | null;
  postUrl: string | null;
  isCut: boolean;
}): FediverseOrigin | null {
  if (remote.handle === null || remote.server === null) return null;
  return { ...remote, handle: remote.handle, server: remote.server, isCut: Boolean(remote.isCut) };
}
