import { and, asc, count, desc, eq, gt, gte, inArray, ne, or, sql } from "drizzle-orm";
import { ADMIN_EMBERS_READ } from "../../common/constants.ts";
import {
  COVER_HTTPS_MESSAGE,
  coverProviderOf,
  isCoverAllowedOnPages,
} from "../../common/cover-image.ts";
import { dayInZone, dayToDate } from "../../common/dates.ts";
import type {
  BookInput,
  EmberInput,
  ModeratedWhisper,
  PoemInput,
  PoemPreviewInput,
  ScheduledEmber,
  TagInput,
} from "../../common/schemas/admin.ts";
import type { Book } from "../../common/schemas/books.ts";
import type {
  AdminPoem,
  Poem,
  PoemVersion,
  RemovedStanzaWords,
  TagRef,
} from "../../common/schemas/poems.ts";
import { stanzaTimingsProblem } from "../../common/stanza-timings.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, invalid, isUniqueViolation, notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import {
  books,
  embers,
  emberTags,
  poems,
  poemTags,
  poemVersions,
  remoteAccounts,
  tags,
  users,
  whispers,
} from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { fediverseOrigin } from "../interactions/interactions.ts";
import { asBook, bookColumns } from "./books.ts";
import { createPoemPreview } from "./poem-preview.ts";
import { countRemovedWords, keepVersion, listVersions } from "./poem-revisions.ts";
import { type PoemService, poemColumns, withTags } from "./poems.ts";
import { timingsToKeep } from "./stanza-timings.ts";

const MODERATION_LIST_MAX = 500;

/** An ember as the admin's schedule shows it, which is also what its writes answer. */
export const scheduledEmberColumns = {
  id: embers.id,
  text: embers.text,
  date: embers.date,
  isFeatured: embers.isFeatured,
  featuredAt: embers.featuredAt,
  createdAt: embers.createdAt,
  updatedAt: embers.updatedAt,
};

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * The poet's writes from the admin area: poems, embers, books and tags, and whisper
 * moderation, for admins only (AdminActor). Every write is one transaction.
 */
export function createContentAdminService({
  db,
  config,
  now,
  poems: poemReads,
  contentChanges,
}: ServiceDeps & { poems: PoemService; contentChanges: ContentChanges }) {
  const previewPoem = createPoemPreview({ db, config, now });
  /**
   * Runs a write to what readers see, answering 409 with `conflictMessage` when it would
   * duplicate a unique value, and once it is committed announces the change, so cached pages go
   * on every instance. Every write below goes through here but whisper moderation: no page or
   * cached answer holds whispers (a stanza's are read afresh on each call, as after a reader
   * writes or deletes one), so there is nothing to announce.
   */
  async function writeContent<T>(write: () => Promise<T>, conflictMessage = ""): Promise<T> {
    let result: T;
    try {
      result = await write();
    } catch (error) {
      if (conflictMessage && isUniqueViolation(error)) throw conflict(conflictMessage);
      throw error;
    }
    await contentChanges.announce();
    return result;
  }

  async function requireTags(tx: Transaction, tagIds: number[]) {
    if (tagIds.length === 0) return;
    const found = await tx.select({ id: tags.id }).from(tags).where(inArray(tags.id, tagIds));
    if (found.length !== new Set(tagIds).size) {
      throw invalid("Unknown tag", { tagIds: ["Choose tags from the list"] });
    }
  }

  /** Replaces a poem's or an ember's tags with `tagIds` (all of which must exist). */
  async function linkTags(
    tx: Transaction,
    owner: { poemId: number } | { emberId: number },
    tagIds: number[],
  ) {
    await requireTags(tx, tagIds);
    const distinct = [...new Set(tagIds)];
    if ("poemId" in owner) {
      await tx.delete(poemTags).where(eq(poemTags.poemId, owner.poemId));
      if (distinct.length > 0) {
        await tx.insert(poemTags).values(distinct.map((tagId) => ({ ...owner, tagId })));
      }
      return;
    }
    await tx.delete(emberTags).where(eq(emberTags.emberId, owner.emberId));
    if (distinct.length > 0) {
      await tx.insert(emberTags).values(distinct.map((tagId) => ({ ...owner, tagId })));
    }
  }

  /** A cover the page's own policy would block is refused here, not shown broken to readers. */
  function requireCoverAllowedOnPages(coverUrl: string | null) {
    if (coverUrl && !isCoverAllowedOnPages(coverUrl, config.publicUrl.origin)) {
      throw invalid(COVER_HTTPS_MESSAGE, { coverUrl: [COVER_HTTPS_MESSAGE] });
    }
  }

  /** On create, publication defaults to now and not a draft; on update, it stays unless given. */
  const publicationValues = (input: { draft?: boolean; publishAt?: Date }, isCreate: boolean) => ({
    ...(input.draft !== undefined || isCreate ? { draft: input.draft ?? false } : {}),
    ...(input.publishAt !== undefined || isCreate ? { publishAt: input.publishAt ?? now() } : {}),
  });

  const poemValues = (input: PoemInput, isCreate: boolean) => ({
    ...publicationValues(input, isCreate),
    title: input.title,
    slug: input.slug,
    stanzas: input.stanzas,
    audioUrl: input.audioUrl,
    coverUrl: input.coverUrl,
    coverAlt: input.coverAlt ?? input.title,
    coverProvider: coverProviderOf(input.coverUrl),
    coverWidth: input.coverUrl ? input.coverWidth : null,
    coverHeight: input.coverUrl ? input.coverHeight : null,
  });

  /** Featuring an ember stamps featuredAt; the newest featured one is the Ember of the Week. */
  const emberValues = (input: EmberInput, wasFeatured: boolean) => {
    const isFeatured = input.isFeatured ?? wasFeatured;
    return {
      text: input.text,
      date: dayToDate(input.date),
      isFeatured,
      ...(isFeatured && !wasFeatured ? { featuredAt: now() } : {}),
      ...(!isFeatured ? { featuredAt: null } : {}),
    };
  };

  const SLUG_TAKEN = "A poem with this slug already exists";
  const EMBER_DAY_TAKEN = "An ember is already scheduled for that date";
  const BOOK_SLUG_TAKEN = "A book with this slug already exists";
  const TAG_TAKEN = "A tag with this name already exists";

  /** Tag names are unique ignoring case, since "Night" and "night" would share a theme page. */
  async function requireFreeTagName(tx: Transaction, name: string, exceptId?: number) {
    const [taken] = await tx
      .select({ id: tags.id })
      .from(tags)
      .where(
        and(
          sql`lower(${tags.name}) = lower(${name})`,
          exceptId === undefined ? undefined : ne(tags.id, exceptId),
        ),
      );
    if (taken) throw conflict(TAG_TAKEN);
  }

  async function readEmber(id: number): Promise<ScheduledEmber> {
    const rows = await db.select(scheduledEmberColumns).from(embers).where(eq(embers.id, id));
    const [ember] = await withTags(db, rows, emberTags);
    if (!ember) throw notFound("Ember not found");
    return ember;
  }

  const noRemovedWords: RemovedStanzaWords = { echoes: 0, whispers: 0, journalEntries: 0 };

  /** Poems with the count of their readers' words set aside on removed stanzas. */
  async function withRemovedWords<Row extends Poem>(
    rows: Row[],
  ): Promise<(Row & Pick<AdminPoem, "removedStanzaWords">)[]> {
    const counts = await countRemovedWords(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      ...row,
      removedStanzaWords: counts.get(row.id) ?? noRemovedWords,
    }));
  }

  async function readAdminPoem(slug: string): Promise<AdminPoem> {
    const [poem] = await withRemovedWords([await poemReads.getPoem("admin", slug)]);
    if (!poem) throw notFound("Poem not found");
    return poem;
  }

  /** Writes a poem's new values under its row lock, keeping the version they replace. */
  async function revisePoem(
    tx: Transaction,
    admin: AdminActor,
    id: number,
    values: { title: string; stanzas: string[] } & Partial<typeof poems.$inferInsert>,
    timings: Pick<PoemInput, "stanzaTimings" | "readingDuration"> = {},
  ) {
    const [before] = await tx
      .select({
        title: poems.title,
        stanzas: poems.stanzas,
        audioUrl: poems.audioUrl,
        stanzaTimings: poems.stanzaTimings,
        readingDuration: poems.readingDuration,
        updatedAt: poems.updatedAt,
      })
      .from(poems)
      .where(and(eq(poems.id, id), isLive(poems)))
      .for("update");
    if (!before) throw notFound("Poem not found");
    const audioUrl = values.audioUrl === undefined ? before.audioUrl : values.audioUrl;
    const kept = timingsToKeep({ ...timings, stanzas: values.stanzas, audioUrl }, before);
    const [poem] = await tx
      .update(poems)
      // An edited sample is the poet's own now (decision 058).
      .set({ ...values, ...kept, isSample: false })
      .where(eq(poems.id, id))
      .returning({ slug: poems.slug });
    if (!poem) throw notFound("Poem not found");
    await keepVersion(tx, admin, id, before, values);
    return poem;
  }

  async function restorableTimings(
    tx: Transaction,
    id: number,
    stanzaTimings: number[] | null,
    stanzas: string[],
  ): Promise<Pick<PoemInput, "stanzaTimings">> {
    const [poem] = await tx
      .select({ audioUrl: poems.audioUrl, readingDuration: poems.readingDuration })
      .from(poems)
      .where(eq(poems.id, id));
    const fits =
      stanzaTimings &&
      poem?.audioUrl &&
      poem.readingDuration &&
      !stanzaTimingsProblem(stanzaTimings, stanzas.length, poem.readingDuration);
    return fits ? { stanzaTimings } : {};
  }

  return {
    async createPoem(_admin: AdminActor, input: PoemInput): Promise<AdminPoem> {
      requireCoverAllowedOnPages(input.coverUrl);
      const slug = await writeContent(
        () =>
          db.transaction(async (tx) => {
            const [poem] = await tx
              .insert(poems)
              .values({ ...poemValues(input, true), ...timingsToKeep(input) })
              .returning({ id: poems.id, slug: poems.slug });
            if (!poem) throw new Error("poem insert returned nothing");
            await linkTags(tx, { poemId: poem.id }, input.tagIds);
            return poem.slug;
          }),
        SLUG_TAKEN,
      );
      return readAdminPoem(slug);
    },

    /**
     * Saves a poem; a change of title or stanzas keeps the version it replaces and moves its
     * readers' words with their stanzas (poem-revisions.ts), in the same transaction.
     */
    async updatePoem(admin: AdminActor, id: number, input: PoemInput): Promise<AdminPoem> {
      requireCoverAllowedOnPages(input.coverUrl);
      const slug = await writeContent(
        () =>
          db.transaction(async (tx) => {
            const values = poemValues(input, false);
            // A draft published without a time is published now, not when it was drafted.
            if (input.draft === false && input.publishAt === undefined) {
              const [current] = await tx
                .select({ draft: poems.draft })
                .from(poems)
                .where(eq(poems.id, id));
              if (current?.draft) values.publishAt = now();
            }
            const poem = await revisePoem(tx, admin, id, values, input);
            await linkTags(tx, { poemId: id }, input.tagIds);
            return poem.slug;
          }),
        SLUG_TAKEN,
      );
      return readAdminPoem(slug);
    },

    /**
     * Publishes a draft or a scheduled poem now (the preview banner's 'Publish'); a poem already
     * out keeps its date. 404 for an unknown poem.
     */
    async publishPoem(_admin: AdminActor, id: number): Promise<AdminPoem> {
      const at = now();
      const [live] = await db
        .select({ slug: poems.slug })
        .from(poems)
        .where(and(eq(poems.id, id), isLive(poems)));
      if (!live) throw notFound("Poem not found");
      const [published] = await db
        .update(poems)
        .set({ draft: false, publishAt: at })
        .where(
          and(eq(poems.id, id), isLive(poems), or(eq(poems.draft, true), gt(poems.publishAt, at))),
        )
        .returning({ slug: poems.slug });
      if (published) await contentChanges.announce();
      return readAdminPoem(live.slug);
    },

    previewPoem: (_admin: AdminActor, input: PoemPreviewInput) => previewPoem(input),

    /** One live poem, drafts and scheduled ones included; 404 for an unknown poem. */
    async getPoem(_admin: AdminActor, id: number): Promise<AdminPoem> {
      const [poem] = await db
        .select({ slug: poems.slug })
        .from(poems)
        .where(and(eq(poems.id, id), isLive(poems)));
      if (!poem) throw notFound("Poem not found");
      return readAdminPoem(poem.slug);
    },

    /** A poem's earlier versions, newest first; 404 for an unknown poem. */
    async listPoemVersions(_admin: AdminActor, id: number): Promise<PoemVersion[]> {
      const [poem] = await db
        .select({ id: poems.id })
        .from(poems)
        .where(and(eq(poems.id, id), isLive(poems)));
      if (!poem) throw notFound("Poem not found");
      return listVersions(db, id);
    },

    /**
     * Saves an earlier version's title and stanzas again, as a new version of its own: readers'
     * words set aside with its stanzas come back. 404 for a version of another poem.
     */
    async restorePoemVersion(admin: AdminActor, id: number, versionId: number): Promise<AdminPoem> {
      const slug = await writeContent(() =>
        db.transaction(async (tx) => {
          const [version] = await tx
            .select({
              title: poemVersions.title,
              stanzas: poemVersions.stanzas,
              stanzaTimings: poemVersions.stanzaTimings,
            })
            .from(poemVersions)
            .where(and(eq(poemVersions.id, versionId), eq(poemVersions.poemId, id)));
          if (!version) throw notFound("Version not found");
          const { stanzaTimings, ...restored } = version;
          // The version's timings come back with its stanzas when they still fit the reading.
          const timings = await restorableTimings(tx, id, stanzaTimings, restored.stanzas);
          return (await revisePoem(tx, admin, id, restored, timings)).slug;
        }),
      );
      return readAdminPoem(slug);
    },

    /**
     * Every live poem (the deleted ones are in Recently deleted), for the Poems tab: drafts first, then scheduled ones (soonest first), then the
     * published (newest first).
     */
    async listPoems(_admin: AdminActor): Promise<AdminPoem[]> {
      const asOf = now();
      const rows = await db
        .select(poemColumns)
        .from(poems)
        .where(isLive(poems))
        .orderBy(
          sql`case when ${poems.draft} then 0 when ${poems.publishAt} > ${asOf} then 1 else 2 end`,
          sql`case when not ${poems.draft} and ${poems.publishAt} > ${asOf} then ${poems.publishAt} end asc`,
          desc(poems.publishAt),
          desc(poems.id),
        );
      return withRemovedWords(await withTags(db, rows, poemTags));
    },

    /** From today in SITE_TIMEZONE onward, soonest first: the schedule, future days included. */
    async listEmberSchedule(
      _admin: AdminActor,
      limit = ADMIN_EMBERS_READ,
    ): Promise<ScheduledEmber[]> {
      const today = dayToDate(dayInZone(config.siteTimezone, now()));
      const rows = await db
        .select(scheduledEmberColumns)
        .from(embers)
        .where(gte(embers.date, today))
        .orderBy(asc(embers.date))
        .limit(Math.min(limit, ADMIN_EMBERS_READ));
      return withTags(db, rows, emberTags);
    },

    async createEmber(_admin: AdminActor, input: EmberInput): Promise<ScheduledEmber> {
      const { id } = await writeContent(
        () =>
          db.transaction(async (tx) => {
            const [ember] = await tx
              .insert(embers)
              .values(emberValues(input, false))
              .returning({ id: embers.id });
            if (!ember) throw new Error("ember insert returned nothing");
            await linkTags(tx, { emberId: ember.id }, input.tagIds ?? []);
            return ember;
          }),
        EMBER_DAY_TAKEN,
      );
      return readEmber(id);
    },

    async updateEmber(_admin: AdminActor, id: number, input: EmberInput): Promise<ScheduledEmber> {
      await writeContent(
        () =>
          db.transaction(async (tx) => {
            const [existing] = await tx
              .select({ isFeatured: embers.isFeatured })
              .from(embers)
              .where(eq(embers.id, id))
              .for("update");
            if (!existing) throw notFound("Ember not found");
            await tx
              .update(embers)
              .set({ ...emberValues(input, existing.isFeatured), isSample: false })
              .where(eq(embers.id, id));
            if (input.tagIds) await linkTags(tx, { emberId: id }, input.tagIds);
          }),
        EMBER_DAY_TAKEN,
      );
      return readEmber(id);
    },

    async deleteEmber(_admin: AdminActor, id: number): Promise<void> {
      await writeContent(async () => {
        const deleted = await db
          .delete(embers)
          .where(eq(embers.id, id))
          .returning({ id: embers.id });
        if (deleted.length === 0) throw notFound("Ember not found");
      });
    },

    async createBook(_admin: AdminActor, input: BookInput): Promise<Book> {
      requireCoverAllowedOnPages(input.coverUrl);
      const [book] = await writeContent(
        () =>
          db
            .insert(books)
            .values({ ...input, ...publicationValues(input, true) })
            .returning(bookColumns),
        BOOK_SLUG_TAKEN,
      );
      if (!book) throw new Error("book insert returned nothing");
      return asBook(book);
    },

    async updateBook(_admin: AdminActor, id: number, input: BookInput): Promise<Book> {
      requireCoverAllowedOnPages(input.coverUrl);
      const [book] = await writeContent(
        () =>
          db
            .update(books)
            .set({ ...input, ...publicationValues(input, false), isSample: false })
            .where(and(eq(books.id, id), isLive(books)))
            .returning(bookColumns),
        BOOK_SLUG_TAKEN,
      );
      if (!book) throw notFound("Book not found");
      return asBook(book);
    },

    async createTag(_admin: AdminActor, input: TagInput): Promise<TagRef> {
      return writeContent(
        () =>
          db.transaction(async (tx) => {
            await requireFreeTagName(tx, input.name);
            const [tag] = await tx
              .insert(tags)
              .values({ name: input.name })
              .returning({ id: tags.id, name: tags.name });
            if (!tag) throw new Error("tag insert returned nothing");
            return tag;
          }),
        TAG_TAKEN,
      );
    },

    async updateTag(_admin: AdminActor, id: number, input: TagInput): Promise<TagRef> {
      return writeContent(
        () =>
          db.transaction(async (tx) => {
            await requireFreeTagName(tx, input.name, id);
            const [tag] = await tx
              .update(tags)
              .set({ name: input.name, isSample: false })
              .where(eq(tags.id, id))
              .returning({ id: tags.id, name: tags.name });
            if (!tag) throw notFound("Tag not found");
            return tag;
          }),
        TAG_TAKEN,
      );
    },

    /** Its links to poems and embers go with it; the poems and embers stay. */
    async deleteTag(_admin: AdminActor, id: number): Promise<void> {
      await writeContent(async () => {
        const deleted = await db.delete(tags).where(eq(tags.id, id)).returning({ id: tags.id });
        if (deleted.length === 0) throw notFound("Tag not found");
      });
    },

    /**
     * Every whisper on a live poem, newest first, approved or hidden, with its poem and author
     * (a deleted poem's whispers wait with it in Recently deleted).
     */
    async listWhispers(_admin: AdminActor): Promise<ModeratedWhisper[]> {
      const rows = await db
        .select({
          id: whispers.id,
          // The poet reads a long fediverse reply whole (decision 046).
          text: sql<string>`coalesce(${whispers.fullText}, ${whispers.text})`,
          isApproved: whispers.isApproved,
          isAwaitingApproval: whispers.isAwaitingApproval,
          createdAt: whispers.createdAt,
          stanzaIndex: whispers.stanzaIndex,
          stanzaCount: sql<number>`jsonb_array_length(${poems.stanzas})`,
          poemSlug: poems.slug,
          poemTitle: poems.title,
          user: {
            firstName: users.firstName,
            lastName: users.lastName,
            profileImageUrl: users.profileImageUrl,
            id: users.id,
            email: users.email,
            isAdmin: sql<boolean>`${users.role} = 'ADMIN'`,
            isBlocked: sql<boolean>`${users.blockedAt} is not null`,
          },
          remote: {
            name: remoteAccounts.name,
            handle: remoteAccounts.handle,
            server: remoteAccounts.server,
            profileUrl: remoteAccounts.profileUrl,
            postUrl: whispers.remoteUrl,
            isCut: sql<boolean>`${whispers.fullText} is not null`,
          },
        })
        .from(whispers)
        .innerJoin(poems, and(eq(poems.id, whispers.poemId), isLive(poems)))
        .innerJoin(users, eq(users.id, whispers.userId))
        .leftJoin(remoteAccounts, eq(remoteAccounts.userId, whispers.userId))
        .orderBy(desc(whispers.createdAt), desc(whispers.id))
        .limit(MODERATION_LIST_MAX);
      return rows.map(({ remote, ...row }) => ({
        ...row,
        stanzaIndex: Number(row.stanzaIndex),
        stanzaCount: Number(row.stanzaCount),
        fediverse: fediverseOrigin(remote),
      }));
    },

    /**
     * Moves a whisper to another stanza of its poem, as the poet moderates: a reply to the poem
     * from the fediverse lands on the first stanza and may belong to another. A whisper set aside
     * on a stanza a revision removed comes back on the stanza it is moved to.
     */
    async moveWhisper(_admin: AdminActor, id: number, stanzaIndex: number): Promise<void> {
      const [whisper] = await db
        .select({ stanzaCount: sql<number>`jsonb_array_length(${poems.stanzas})` })
        .from(whispers)
        .innerJoin(poems, and(eq(poems.id, whispers.poemId), isLive(poems)))
        .where(eq(whispers.id, id));
      if (!whisper) throw notFound("Whisper not found");
      const stanzaCount = Number(whisper.stanzaCount);
      if (stanzaIndex < 0 || stanzaIndex >= stanzaCount) {
        throw invalid(`stanzaIndex must be from 0 to ${stanzaCount - 1}`);
      }
      await db
        .update(whispers)
        .set({ stanzaIndex: String(stanzaIndex), removedWithVersionId: null })
        .where(eq(whispers.id, id));
    },

    /** Whispers on live poems waiting for the poet's approval: the count on the Whispers tab. */
    async countWhispersAwaitingApproval(_admin: AdminActor): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(whispers)
        .innerJoin(poems, and(eq(poems.id, whispers.poemId), isLive(poems)))
        .where(eq(whispers.isAwaitingApproval, true));
      return Number(row?.n ?? 0);
    },

    /**
     * Hidden whispers leave readers' lists at once, approved ones come back: the lists are read
     * afresh each time, so this write announces nothing (writeContent). Either way the poet has
     * decided, so the whisper no longer awaits approval.
     */
    async setWhisperApproval(_admin: AdminActor, id: number, isApproved: boolean): Promise<void> {
      const updated = await db
        .update(whispers)
        .set({ isApproved, isAwaitingApproval: false })
        .where(eq(whispers.id, id))
        .returning({ id: whispers.id });
      if (updated.length === 0) throw notFound("Whisper not found");
    },
  };
}

export type ContentAdminService = ReturnType<typeof createContentAdminService>;
