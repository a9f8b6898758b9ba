import { eq, type SQL, sql } from "drizzle-orm";
import { READER_BLOCKED_MESSAGE } from "../../common/schemas/account.ts";
import type { EchoCount } from "../../common/schemas/interactions.ts";
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
import { executeNamed } from "../db/client.ts";
import { poems } from "../db/schema.ts";
import { isReadable } from "../db/visibility.ts";

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

export interface KnownPoem {
  id: number;
  draft: boolean;
  publishAt: Date;
  deletedAt: Date | null;
  stanzaCount: number;
}

export function requireUser(actor: Actor): SessionUser {
  if (!actor) throw unauthorized();
  return actor;
}

/** Echoes and whispers: a reader the poet has blocked is refused (decision 041). */
export function requireUnblockedUser(actor: Actor): SessionUser {
  const user = requireUser(actor);
  if (user.isBlocked) throw forbidden(READER_BLOCKED_MESSAGE);
  return user;
}

export const storedKey = (stanzaIndex: number | null) =>
  stanzaIndex === null ? "" : String(stanzaIndex);

/** The stored form of a stanza index, checked against the poem: '' is the whole poem. */
export function stanzaKey(poem: { stanzaCount: number }, stanzaIndex: number | null): string {
  if (stanzaIndex !== null && (stanzaIndex < 0 || stanzaIndex >= poem.stanzaCount)) {
    throw invalid(`stanzaIndex must be from 0 to ${poem.stanzaCount - 1}`);
  }
  return storedKey(stanzaIndex);
}

/**
 * What interactions keep in memory (decision 025), and the steps every interaction shares: the
 * poem found and checked, a write on it, a toggle.
 */
export function createInteractionMemory({
  db,
  now,
  ownsDatabase,
}: Pick<ServiceDeps, "db" | "now" | "ownsDatabase">) {
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

  return {
    poemsBySlug,
    sharedEchoCounts,
    echoedByReader,
    savedByReader,
    readerMarkKey,
    knownPoem,
    findPoem,
    onPoem,
    runToggle,
  };
}

export type InteractionMemory = ReturnType<typeof createInteractionMemory>;

/**
 * What other features ask of this memory and tell it: the fediverse, the poem a reply or a like
 * may answer; content and accounts, what changed.
 */
export function memoryNotices({ now }: Pick<ServiceDeps, "now">, memory: InteractionMemory) {
  const { poemsBySlug, sharedEchoCounts, echoedByReader, savedByReader, knownPoem } = memory;
  return {
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
  };
}
