import { type SQL, sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { StoredBooksPage } from "../../common/book-slots.ts";
import type { BookPage } from "../../common/schemas/books.ts";
import { CHAPBOOK_FACES } from "../../common/schemas/chapbook-faces.ts";
import { type DigestContent, MAIL_RUN_STATUSES } from "../../common/schemas/digest.ts";

/**
 * One PostgreSQL schema for both drivers (PGlite and node-postgres). Entities and fields follow
 * the API's data model; names are its own, odd ones included (docs/product/README.md, Names that
 * look odd, and why). Timestamps are stored with time zone.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * When the poet deleted it: null while it is live. A deleted poem or book is kept, hidden from
 * everyone (server/db/visibility.ts) and holding its slug, in Recently deleted until it is
 * restored or purged (docs/decisions/033-recently-deleted.md). An instant, not a flag: later
 * work (telling other servers) waits until the Undo window has passed.
 */
const deletedAt = () => timestamp("deleted_at", { withTimezone: true });
/**
 * Set on the sample content a new site starts with (the demo seed and the built-in guest voices)
 * and cleared when the poet edits the row: 'Remove the sample content' removes exactly these
 * (docs/decisions/058-sample-content.md).
 */
const isSample = () => boolean("is_sample").notNull().default(false);

/** PostgreSQL's text-search document, which Drizzle has no column builder for. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * What search reads (docs/decisions/020-search.md): a stored document kept by PostgreSQL itself,
 * so no write path can forget it, built by the search functions the search migration defines
 * (one text-search configuration, accents folded). The GIN indexes skip the pending list
 * (fastupdate off): content is written rarely and searched often.
 */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

const searchVector = (name: string, document: SQL) => tsvector(name).generatedAlwaysAs(document);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null only for a fediverse author, who has no address here (isRemote). */
    email: text("email").unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    /** Display name kept for the sign-in library; the site shows firstName/lastName. */
    name: text("name").notNull().default(""),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    role: text("role", { enum: ["USER", "ADMIN"] })
      .notNull()
      .default("USER"),
    /**
     * Set while the poet has blocked this reader: no echoes or whispers, and their whispers are
     * hidden from readers by this column alone, so unblocking brings back exactly those the poet
     * had approved (docs/decisions/041-blocking-a-reader.md).
     */
    blockedAt: timestamp("blocked_at", { withTimezone: true }),
    /**
     * A fediverse author (their details in remote_accounts): the row gives their whispers and
     * echoes the userId every reader's carry, and no sign-in path ever makes a session for it
     * (docs/decisions/046-fediverse-voices.md).
     */
    isRemote: boolean("is_remote").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("users_email_unless_remote", sql`${table.isRemote} or ${table.email} is not null`),
  ],
);

/**
 * A fediverse account the site has heard from: one that followed it, replied, liked or boosted
 * (docs/decisions/075-one-table-of-remote-accounts.md). What was read from its actor document,
 * refreshed when it sends an activity and its document is read again; and, from its first
 * reply, like or boost, the user row that carries its whispers and echoes as every reader's
 * carry theirs (docs/decisions/046-fediverse-voices.md). Never a reader's account.
 */
export const remoteAccounts = pgTable(
  "remote_accounts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /** The actor's id, an absolute URL: the key every activity names it by. */
    actorUrl: text("actor_url").notNull().unique(),
    /** Made at its first reply, like or boost; none for an account that only follows. */
    userId: uuid("user_id")
      .unique()
      .references(() => users.id, { onDelete: "set null" }),
    /** "@name@server". */
    handle: text("handle").notNull(),
    name: text("name"),
    /** Kept, never loaded by readers' browsers: a letter stands for it (decision 046). */
    avatarUrl: text("avatar_url"),
    profileUrl: text("profile_url"),
    /** The host of the actor's id (with its port, if any): what a server block matches. */
    server: text("server").notNull(),
    /** Where activities for it go; null until its actor document is read again. */
    inbox: text("inbox"),
    sharedInbox: text("shared_inbox"),
    publicKeyId: text("public_key_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("remote_accounts_server_idx").on(table.server)],
);

/** The session store (the data model's sid, sess, expire) as the sign-in library keeps it. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The sid: the opaque value carried (signed) in the session cookie. */
    token: text("token").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/** Sign-in methods linked to a user (OpenID Connect accounts), kept by the sign-in library. */
export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("accounts_user_id_idx").on(table.userId)],
);

/** Short-lived secrets: email sign-in link tokens (stored hashed) and OIDC state. */
export const verifications = pgTable(
  "verifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/**
 * Fixed-window rate-limit counters, in the database so every instance shares them. Unlogged
 * (migration 0007): a crash may empty them, and their commits skip the log's flush.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});

export const tags = pgTable("tags", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull().unique(),
  createdAt: createdAt(),
  isSample: isSample(),
});

export const poems = pgTable(
  "poems",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: text("title").notNull(),
    slug: text("slug").notNull().unique(),
    stanzas: jsonb("stanzas").$type<string[]>().notNull(),
    audioUrl: text("audio_url"),
    /**
     * Where each stanza begins in the reading, in seconds, one per stanza, ascending
     * (docs/product/chapbook.md, The voice read along). They belong to these stanzas: a save
     * that changes the stanzas clears them unless it gives new ones.
     */
    stanzaTimings: jsonb("stanza_timings").$type<number[]>(),
    /** The reading's length in seconds, as the editor measured it when the stanzas were timed. */
    readingDuration: doublePrecision("reading_duration"),
    coverUrl: text("cover_url"),
    coverAlt: text("cover_alt"),
    coverProvider: text("cover_provider", { enum: ["object-storage", "url"] }),
    coverWidth: integer("cover_width"),
    coverHeight: integer("cover_height"),
    /** Never shown to readers while true, whatever publishAt says (server/db/visibility.ts). */
    draft: boolean("draft").notNull().default(false),
    /** When readers first see it: now or past is published, future is scheduled. */
    publishAt: timestamp("publish_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: deletedAt(),
    /**
     * Set when the poem came in from another platform's export (docs/decisions/052-the-import-job.md):
     * history, not news, so the digest does not announce it as new and it is not sent to followers.
     */
    importedAt: timestamp("imported_at", { withTimezone: true }),
    isSample: isSample(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The title and the stanzas. */
    searchVector: searchVector("search_vector", sql`public.poem_search_document(title, stanzas)`),
    /**
     * The title alone: title matches come first, read through their own index however many poems
     * hold the word, and checked row by row without building a document each time.
     */
    titleSearchVector: searchVector("title_search_vector", sql`public.search_document(title)`),
  },
  // The poem list's order (newest published first, then id): its pages are read off this index.
  (table) => [
    index("poems_newest_published_idx").on(
      table.publishAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index("poems_search_vector_idx").using("gin", table.searchVector).with({ fastupdate: false }),
    index("poems_title_search_vector_idx")
      .using("gin", table.titleSearchVector)
      .with({ fastupdate: false }),
  ],
);

/**
 * A poem as it was before a save changed its title or stanzas (docs/decisions/023): kept until
 * the poem is deleted, and restorable.
 */
export const poemVersions = pgTable(
  "poem_versions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    stanzas: jsonb("stanzas").$type<string[]>().notNull(),
    /** The stanza timings this version had, restored with it. */
    stanzaTimings: jsonb("stanza_timings").$type<number[]>(),
    /** When this version was saved (the poem's updatedAt then). */
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull(),
    /** The admin whose save replaced it. */
    replacedBy: uuid("replaced_by").references(() => users.id, { onDelete: "set null" }),
    replacedAt: createdAt(),
  },
  (table) => [index("poem_versions_poem_idx").on(table.poemId, table.replacedAt.desc())],
);

/**
 * On a reader's echo, whisper or journal entry: the version holding the stanza it was on, once a
 * save removed that stanza from the poem. Such rows are kept, hidden from readers, and come back
 * when a later save (a restore) has the stanza again. Null while the stanza is in the poem.
 */
const removedWithVersion = () =>
  integer("removed_with_version_id").references(() => poemVersions.id, { onDelete: "cascade" });

export const poemTags = pgTable(
  "poem_tags",
  {
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.poemId, table.tagId] }),
    index("poem_tags_tag_id_idx").on(table.tagId),
  ],
);

export const embers = pgTable(
  "embers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    text: text("text").notNull(),
    /** Midnight UTC of the ember's calendar day; unique, so one ember per day. */
    date: timestamp("date", { withTimezone: true }).notNull().unique(),
    isFeatured: boolean("is_featured").notNull().default(false),
    featuredAt: timestamp("featured_at", { withTimezone: true }),
    createdAt: createdAt(),
    isSample: isSample(),
    updatedAt: updatedAt(),
    searchVector: searchVector("search_vector", sql`public.search_document(text)`),
  },
  (table) => [
    index("embers_featured_at_idx").on(table.featuredAt.desc()).where(sql`${table.isFeatured}`),
    index("embers_search_vector_idx").using("gin", table.searchVector).with({ fastupdate: false }),
  ],
);

export const emberTags = pgTable(
  "ember_tags",
  {
    emberId: integer("ember_id")
      .notNull()
      .references(() => embers.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.emberId, table.tagId] }),
    index("ember_tags_tag_id_idx").on(table.tagId),
  ],
);

export const books = pgTable("books", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  title: text("title").notNull(),
  slug: text("slug").notNull().unique(),
  blurb: text("blurb").notNull(),
  coverUrl: text("cover_url").notNull(),
  buyUrl: text("buy_url").notNull(),
  /** The spec says "integer"; the client reads a list of pages (docs/decisions/002). */
  pages: jsonb("pages").$type<BookPage[]>(),
  order: integer("order"),
  /** As for poems: a draft is never shown; a future publishAt is a scheduled book. */
  draft: boolean("draft").notNull().default(false),
  publishAt: timestamp("publish_at", { withTimezone: true }).notNull().defaultNow(),
  isSample: isSample(),
  deletedAt: deletedAt(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The table keeps the data model's spelling, `echos` (docs/product/README.md). */
export const echoes = pgTable(
  "echos",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    /** '' is the whole poem; otherwise the 0-based stanza index as text. */
    stanzaIndex: text("stanza_index").notNull().default(""),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Part of the data model's unique key; nothing here writes it (docs/product/README.md). */
    sessionId: text("session_id"),
    /** The id of the fediverse Like this echo is, so its Undo can name it (decision 046). */
    remoteActivityId: text("remote_activity_id"),
    removedWithVersionId: removedWithVersion(),
    createdAt: createdAt(),
  },
  (table) => [
    // NULLS NOT DISTINCT: an absent user or session still counts once (PostgreSQL 15+, PGlite).
    // An echo on a removed stanza keeps its old index without taking the place of a live one.
    unique("echos_poem_stanza_user_session_key")
      .on(
        table.poemId,
        table.stanzaIndex,
        table.userId,
        table.sessionId,
        table.removedWithVersionId,
      )
      .nullsNotDistinct(),
    index("echos_user_id_idx").on(table.userId),
    // The digest's most-echoed stanzas read one week of echoes.
    index("echos_created_at_idx").on(table.createdAt),
  ],
);

export const whispers = pgTable(
  "whispers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    stanzaIndex: text("stanza_index").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What readers are shown: at most 280 characters. */
    text: text("text").notNull(),
    isApproved: boolean("is_approved").notNull().default(true),
    /**
     * Not yet approved because the poet holds new whispers (or it is a reply from the fediverse):
     * its writer still sees it, marked so, and the admin lists it apart from whispers the poet
     * hid (docs/decisions/057-a-stanza-link-and-a-held-whisper.md). Always false while approved.
     */
    isAwaitingApproval: boolean("is_awaiting_approval").notNull().default(false),
    /**
     * A reply from the fediverse: its Note's id (a repeated Create stores nothing twice), the
     * original post's address, and the whole reply when it was longer than readers are shown
     * (docs/decisions/046-fediverse-voices.md). Null for a reader's whisper.
     */
    remoteNoteId: text("remote_note_id").unique(),
    remoteUrl: text("remote_url"),
    fullText: text("full_text"),
    removedWithVersionId: removedWithVersion(),
    createdAt: createdAt(),
  },
  (table) => [
    index("whispers_poem_stanza_created_idx").on(
      table.poemId,
      table.stanzaIndex,
      table.createdAt.desc(),
    ),
    index("whispers_created_at_idx").on(table.createdAt.desc()),
    index("whispers_user_id_idx").on(table.userId),
  ],
);

export const journalEntries = pgTable(
  "journal_entries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    stanzaIndex: text("stanza_index").notNull(),
    removedWithVersionId: removedWithVersion(),
    createdAt: createdAt(),
  },
  (table) => [
    unique("journal_entries_user_poem_stanza_key")
      .on(table.userId, table.poemId, table.stanzaIndex, table.removedWithVersionId)
      .nullsNotDistinct(),
    index("journal_entries_poem_id_idx").on(table.poemId),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull().unique(),
    token: text("token").unique(),
    verified: boolean("verified").notNull().default(false),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    unsubscribed: boolean("unsubscribed").notNull().default(false),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    /**
     * Set while the confirmation email still has to go out (the mail server was down): when to
     * try next. Null once it was handed over.
     */
    verificationDueAt: timestamp("verification_due_at", { withTimezone: true }),
    verificationAttempts: integer("verification_attempts").notNull().default(0),
    /** The instance trying to send it now, and until when (server/jobs/leased-rows.ts). */
    claimedBy: text("claimed_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /**
     * An imported subscriber's consent (docs/decisions/052-the-import-job.md): confirmed without
     * our double opt-in because they subscribed on the platform named here and the poet confirmed
     * they consented there. Null for a subscriber who confirmed through our own mail.
     */
    consentSource: text("consent_source"),
    importedAt: timestamp("imported_at", { withTimezone: true }),
    /** The name an imported subscriber had on the old platform (Ghost members have one), else null. */
    name: text("name"),
    createdAt: createdAt(),
  },
  (table) => [
    // The retry loop only ever looks at confirmations still owed.
    index("subscriptions_verification_due_idx")
      .on(table.verificationDueAt)
      .where(sql`${table.verificationDueAt} is not null`),
  ],
);

/**
 * One sending of the digest. The content is kept with the run so that a restart sends every
 * remaining subscriber the same email the first ones got.
 */
export const mailRuns = pgTable(
  "mail_runs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    subject: text("subject").notNull(),
    sentCount: integer("sent_count").notNull().default(0),
    content: jsonb("content").$type<DigestContent>().notNull(),
    status: text("status", { enum: MAIL_RUN_STATUSES }).notNull().default("sending"),
    /** Why sending stopped, shown to the admin while the run is paused. */
    pausedReason: text("paused_reason"),
    recipientCount: integer("recipient_count").notNull().default(0),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    /**
     * The scheduled send this run is for (the weekly schedule's instant), null for a manual
     * send. Unique: two instances, a restart or a clock at the boundary make one run a week.
     */
    scheduledFor: timestamp("scheduled_for", { withTimezone: true }).unique(),
    /** Why a scheduled week sent nothing (status 'skipped'). */
    skipReason: text("skip_reason"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  // At most one run sends (or waits, paused) at a time: a second send is refused, not doubled.
  (table) => [
    uniqueIndex("mail_runs_one_active_idx")
      .on(sql`(true)`)
      .where(sql`${table.status} in ('sending', 'paused')`),
  ],
);

/**
 * The weekly digest's automatic sending: one row (id 1), in the site's time zone. Absent means
 * off. Kept in the database so every instance follows the same schedule.
 */
export const digestSchedule = pgTable(
  "digest_schedule",
  {
    id: integer("id").primaryKey().default(1),
    enabled: boolean("enabled").notNull(),
    /** 0 = Sunday … 6 = Saturday. */
    weekday: integer("weekday").notNull(),
    /** 'HH:MM', on the site's clock (SITE_TIMEZONE). */
    time: text("time").notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [check("digest_schedule_one_row", sql`${table.id} = 1`)],
);

/**
 * The poet's site settings: one row (id 1), absent until the first save. A null column is "not
 * set": the page shows what it showed before settings existed (docs/decisions/039-site-settings.md).
 */
export const siteSettings = pgTable(
  "site_settings",
  {
    id: integer("id").primaryKey().default(1),
    siteTitle: text("site_title"),
    tagline: text("tagline"),
    poetName: text("poet_name"),
    poetBio: text("poet_bio"),
    portraitUrl: text("portrait_url"),
    links: jsonb("links").$type<Array<{ label: string; url: string }>>().notNull().default([]),
    /** Tag ids of /poetry's four filter chips, in order. */
    filterTagIds: jsonb("filter_tag_ids").$type<number[]>(),
    /** Tag ids of home's three 'Current Themes', in order. */
    homeThemeTagIds: jsonb("home_theme_tag_ids").$type<number[]>(),
    /** The five book slots' titles; a null entry keeps that slot's original title. */
    bookSlotTitles: jsonb("book_slot_titles").$type<Array<string | null>>(),
    copyrightFrom: integer("copyright_from"),
    holdWhispers: boolean("hold_whispers").notNull().default(false),
    /** The chapbooks' face; null is EB Garamond (docs/decisions/074-chapbook-cover-and-face.md). */
    chapbookFace: text("chapbook_face", { enum: CHAPBOOK_FACES }),
    /**
     * A stanza's Note carries its part of the reading as an Audio attachment: off until the poet
     * turns it on (docs/decisions/073-stanza-timings-on-the-waveform.md).
     */
    stanzaNotesCarryReading: boolean("stanza_notes_carry_reading").notNull().default(false),
    /**
     * The Books page's words beyond the titles (each slot's label, pull quote and 'Coming Soon'
     * text, whether an empty slot is hidden, the closing sentence): a null text is the original,
     * an empty one the poet cleared (common/book-slots.ts).
     */
    booksPage: jsonb("books_page").$type<StoredBooksPage>(),
    /** The poem home shows first; the newest while unset or while readers cannot see it. */
    pinnedPoemId: integer("pinned_poem_id").references(() => poems.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (table) => [check("site_settings_one_row", sql`${table.id} = 1`)],
);

export const DELIVERY_STATUSES = ["pending", "sending", "sent", "failed", "skipped"] as const;

/**
 * One digest email to one subscriber in one run. Unique per (run, subscriber), so a subscriber
 * can never be queued twice; 'sending' rows are claimed by one instance until lease_until.
 */
export const digestDeliveries = pgTable(
  "digest_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    runId: integer("run_id")
      .notNull()
      .references(() => mailRuns.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedBy: text("claimed_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    unique("digest_deliveries_run_subscription_key").on(table.runId, table.subscriptionId),
    // The sender's claim query only ever looks at unfinished rows.
    index("digest_deliveries_unfinished_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('pending', 'sending')`),
    index("digest_deliveries_run_status_idx").on(table.runId, table.status),
  ],
);

/** Poems sent through /contribute (POST /api/guest-submission), reviewed by an admin. */
export const guestSubmissions = pgTable(
  "guest_submissions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    handle: text("handle"),
    socialUrl: text("social_url"),
    bio: text("bio"),
    poemTitle: text("poem_title").notNull(),
    poemText: text("poem_text").notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index("guest_submissions_created_at_idx").on(table.createdAt.desc())],
);

/**
 * The guest voices on /guest-voices, in the poet's order (`position`, smallest first). The
 * migration that creates the table also seeds the three built-in voices, so every fresh site has
 * them with or without demo content. A voice published from a submission keeps its id there:
 * one submission becomes at most one voice.
 */
export const guestVoices = pgTable(
  "guest_voices",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    handle: text("handle").notNull(),
    socialUrl: text("social_url").notNull(),
    avatarUrl: text("avatar_url"),
    headerImageUrl: text("header_image_url"),
    bio: text("bio").notNull(),
    title: text("title").notNull(),
    /** Paragraphs (stanzas, lines joined by "\n"); an empty string is a spacer. */
    body: jsonb("body").$type<string[]>().notNull(),
    otherWorks: jsonb("other_works")
      .$type<{ title: string; slug: string }[]>()
      .notNull()
      .default([]),
    position: integer("position").notNull(),
    hidden: boolean("hidden").notNull().default(false),
    isSample: isSample(),
    submissionId: integer("submission_id")
      .unique()
      .references(() => guestSubmissions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("guest_voices_position_idx").on(table.position)],
);

/**
 * What the site has told its fediverse followers (docs/decisions/047-fediverse-delivery.md): one
 * signed activity (Create, Update or Delete of a poem's Article), its JSON-LD body kept whole so
 * every delivery of it, on any instance and after any restart, sends the same bytes and id.
 */
export const fediverseActivities = pgTable(
  "fediverse_activities",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /** The activity's id URL: receivers drop a second activity with the same one. */
    activityId: text("activity_id").notNull().unique(),
    type: text("type", { enum: ["Create", "Update", "Delete"] }).notNull(),
    /** The poem it is about; kept after the poem is purged, so the admin still counts it. */
    poemId: integer("poem_id").notNull(),
    body: jsonb("body").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("fediverse_activities_poem_idx").on(table.poemId, table.createdAt.desc())],
);

export const FEDIVERSE_DELIVERY_STATES = ["pending", "retrying", "sent", "failed"] as const;

/**
 * One activity to one inbox, claimed like a digest delivery (FOR UPDATE SKIP LOCKED and a
 * lease): `pending` or `retrying` until its next attempt is due, then `sent` after a 2xx (never
 * sent again) or `failed` for good.
 */
export const fediverseDeliveries = pgTable(
  "fediverse_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    activityId: integer("activity_id")
      .notNull()
      .references(() => fediverseActivities.id, { onDelete: "cascade" }),
    inbox: text("inbox").notNull(),
    state: text("state", { enum: FEDIVERSE_DELIVERY_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** The instance's claim while a POST is in flight; another may take the row after the lease. */
    claimedBy: text("claimed_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    unique("fediverse_deliveries_activity_inbox_key").on(table.activityId, table.inbox),
    // The sender's claim only ever looks at unfinished rows.
    index("fediverse_deliveries_unfinished_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.state} in ('pending', 'retrying')`),
  ],
);

/**
 * Per poem, what followers were last sent, so publishing federates by comparing what readers can
 * see now with this row (docs/decisions/047-fediverse-delivery.md): `created` with the hash of
 * the title and stanzas sent, `deleted` after the Delete, and `history` for imported poems, which
 * are never sent.
 */
export const fediversePoemState = pgTable("fediverse_poem_state", {
  poemId: integer("poem_id").primaryKey(),
  /** The Article's id (the poem's page) as sent, so a Delete names it even after a new slug. */
  objectId: text("object_id"),
  /** The slug it was sent under: a new slug is a new address, so a Delete and a new Create. */
  slug: text("slug"),
  state: text("state", { enum: ["created", "deleted", "history"] }).notNull(),
  contentHash: text("content_hash"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Fedify's key–value store (server/fediverse/kv-store.ts, docs/decisions/044-fediverse-store-and-queue.md):
 * its caches of remote documents and keys, and the ids of activities already received. The key
 * is Fedify's key parts joined by a separator no part holds, so `list(prefix)` is a range scan.
 */
export const fediverseKv = pgTable(
  "fediverse_kv",
  {
    key: text("key").primaryKey(),
    /** SQL null holds Fedify's null (a remembered miss, such as a key that could not be read). */
    value: jsonb("value"),
    /** Null: kept until deleted. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (table) => [index("fediverse_kv_expires_at_idx").on(table.expiresAt)],
);

/**
 * Fedify's message queue (server/fediverse/message-queue.ts, decision 044): one row per message,
 * claimed by one instance until `lockedUntil` and deleted once handled, so a message whose
 * instance died is taken up again by another when its lock ends.
 */
export const fediverseMessages = pgTable(
  "fediverse_messages",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    message: jsonb("message").notNull(),
    /** Messages with the same key are handled one at a time, in order. */
    orderingKey: text("ordering_key"),
    readyAt: timestamp("ready_at", { withTimezone: true }).notNull().defaultNow(),
    /** The instance handling it now, and until when (server/jobs/leased-rows.ts). */
    claimedBy: text("claimed_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index("fediverse_messages_ready_idx").on(table.readyAt, table.id)],
);

/**
 * The site actor's key pairs (docs/decisions/045-federation-layer.md): made once by whichever
 * instance needs them first (insert if absent, then read back), so every instance signs with the
 * same keys. One row per algorithm: RSA for HTTP signatures, Ed25519 for integrity proofs.
 */
export const fediverseKeys = pgTable("fediverse_keys", {
  algorithm: text("algorithm", { enum: ["RSASSA-PKCS1-v1_5", "Ed25519"] }).primaryKey(),
  privateKey: jsonb("private_key").$type<JsonWebKey>().notNull(),
  publicKey: jsonb("public_key").$type<JsonWebKey>().notNull(),
  createdAt: createdAt(),
});

/** Who follows the site's actor, since when, and the Follow that made them a follower. */
export const fediverseFollowers = pgTable(
  "fediverse_followers",
  {
    actorId: text("actor_id")
      .primaryKey()
      .references(() => remoteAccounts.actorUrl, { onDelete: "cascade" }),
    followId: text("follow_id"),
    createdAt: createdAt(),
  },
  (table) => [index("fediverse_followers_created_at_idx").on(table.createdAt.desc())],
);

/** What the poet blocked: a whole server (its host) or one account (its actor id URL). */
export const fediverseBlocks = pgTable(
  "fediverse_blocks",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: ["server", "account"] }).notNull(),
    /** A host (lower case, port included when there is one), or an actor id URL. */
    value: text("value").notNull(),
    createdAt: createdAt(),
  },
  (table) => [unique("fediverse_blocks_kind_value_key").on(table.kind, table.value)],
);

/**
 * Boosts (Announce) of a poem or one of its stanzas from the fediverse: counted per poem for the
 * poet, never shown as echoes; one per remote account and poem (decision 046).
 */
export const poemBoosts = pgTable(
  "poem_boosts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    remoteAccountId: integer("remote_account_id")
      .notNull()
      .references(() => remoteAccounts.id, { onDelete: "cascade" }),
    /** The Announce's id, so its Undo can name it. */
    activityId: text("activity_id").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique("poem_boosts_account_poem_key").on(table.remoteAccountId, table.poemId),
    index("poem_boosts_poem_id_idx").on(table.poemId),
  ],
);

export const IMPORT_JOB_STATES = ["preview", "importing", "done", "failed"] as const;

/**
 * One import of another platform's export (docs/decisions/052-the-import-job.md). Made at the
 * preview with what the parsers found (`parsed`, the file's content in our terms, so a restart
 * imports exactly what the poet saw); the poet's confirmation sets the selection and options and
 * starts it. The background loop then writes it in small batches, each one transaction that also
 * moves the cursors, so a restart resumes at the first item not written.
 */
export const importJobs = pgTable(
  "import_jobs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    source: text("source", { enum: ["substack", "ghost", "wordpress", "files"] }).notNull(),
    fileName: text("file_name").notNull(),
    state: text("state", { enum: IMPORT_JOB_STATES }).notNull().default("preview"),
    /** The parsed export (server/import/types.ts ParsedImport), dates as ISO text. */
    parsed: jsonb("parsed").$type<StoredParsedImport>().notNull(),
    /** The source ids of the poems the poet left out at the preview. */
    excluded: jsonb("excluded").$type<string[]>().notNull().default([]),
    /** The source ids of the changed poems the poet chose to update from this export. */
    updates: jsonb("updates").$type<string[]>().notNull().default([]),
    /**
     * What `parsed` holds, counted once: progress is read every second while a job runs, and
     * never needs the export itself.
     */
    poemCount: integer("poem_count").notNull(),
    subscriberCount: integer("subscriber_count").notNull(),
    importableSubscriberCount: integer("importable_subscriber_count").notNull(),
    /** The poems the poet kept (set at the confirmation). */
    selectedPoemCount: integer("selected_poem_count").notNull(),
    fetchCovers: boolean("fetch_covers").notNull().default(true),
    subscribersConsented: boolean("subscribers_consented").notNull().default(false),
    /** How many of `parsed.poems` (and subscribers) have been written or passed over. */
    poemCursor: integer("poem_cursor").notNull().default(0),
    subscriberCursor: integer("subscriber_cursor").notNull().default(0),
    poemsImported: integer("poems_imported").notNull().default(0),
    poemsAlreadyImported: integer("poems_already_imported").notNull().default(0),
    poemsUpdated: integer("poems_updated").notNull().default(0),
    subscribersImported: integer("subscribers_imported").notNull().default(0),
    subscribersExisting: integer("subscribers_existing").notNull().default(0),
    subscribersSkipped: integer("subscribers_skipped").notNull().default(0),
    /** What went wrong on the way without stopping the import (a cover that could not be fetched). */
    notes: jsonb("notes").$type<string[]>().notNull().default([]),
    /** Why the import stopped, when it failed. */
    error: text("error"),
    claimedBy: text("claimed_by"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("import_jobs_importing_idx").on(table.id).where(sql`${table.state} = 'importing'`),
  ],
);

/** The parsed export as the job keeps it: ParsedImport with its dates as ISO text. */
export interface StoredParsedImport {
  source: "substack" | "ghost" | "wordpress" | "files";
  poems: Array<{
    /** Absent in jobs stored before per-site identity: read as "". */
    site?: string;
    sourceId: string;
    legacyId?: string | null;
    title: string;
    slug: string | null;
    stanzas: string[];
    tags: string[];
    state: "published" | "draft" | "scheduled";
    publishAt: string | null;
    coverUrl: string | null;
    coverAlt: string | null;
    oldPaths: string[];
    audioUrl?: string | null;
    chosen?: boolean;
    notes: string[];
  }>;
  subscribers: Array<{
    email: string;
    name: string | null;
    receivingEmail: boolean;
    subscribedAt: string | null;
    skipReason: string | null;
  }>;
  skipped: Array<{ sourceId: string; title: string; reason: string }>;
}

/**
 * A poem brought in by an import, keyed as its platform knows it: the site it came from (a
 * WordPress site's address; empty where the platform's id is global) and the item's own id there
 * (WordPress's guid, Ghost's uuid, Substack's post_id). Importing the same export again finds it
 * here and adds nothing twice; two sites never share a row. Rows from before per-site identity
 * keep site "" and the platform's post number, and are matched by it and the poem's title.
 */
export const importItems = pgTable(
  "import_items",
  {
    source: text("source").notNull(),
    site: text("site").notNull().default(""),
    sourceId: text("source_id").notNull(),
    /** The poem as it was imported (title, stanzas, tags, state, date), hashed: a later export of the same site whose poem differs is marked changed. Null for rows from before it was kept. */
    fingerprint: text("fingerprint"),
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    jobId: integer("job_id").references(() => importJobs.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.source, table.site, table.sourceId] })],
);

/**
 * An imported poem's address on its old site (`/p/{slug}`, `/{slug}/`, `/?p={id}`), answered
 * with a 301 to its page here. Never one of this site's own pages.
 */
export const importRedirects = pgTable("import_redirects", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  path: text("path").notNull().unique(),
  poemId: integer("poem_id")
    .notNull()
    .references(() => poems.id, { onDelete: "cascade" }),
  jobId: integer("job_id").references(() => importJobs.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/**
 * Counting without tracking (docs/decisions/049-counting-without-tracking.md): the day's salt for
 * telling visitors apart, one row per day in the site's time zone, made by the first instance
 * that needs it and deleted once the day is over, with the day's visitor hashes. The hashes are
 * keyed by this salt and the site's secret together (decision 055), so this row alone tests no
 * guessed address.
 */
export const visitSalts = pgTable("visit_salts", {
  day: date("day", { mode: "string" }).primaryKey(),
  salt: text("salt").notNull(),
});

/**
 * Today's visitors, one set per scope (the site, a page's path, a source, a digest link), each
 * hash keyed by the day and its own scope (decision 055): one reader's rows in two scopes share
 * nothing, so no row links two pages. A page's row holds its visit's reading: the stanzas
 * reported reached (null until a reading is) and shared. Deleted with the day's salt; what
 * outlives the day is only the count in `daily_counts`.
 */
export const dayVisitors = pgTable(
  "day_visitors",
  {
    day: date("day", { mode: "string" }).notNull(),
    scope: text("scope").notNull(),
    hash: text("hash").notNull(),
    reached: integer("reached").array(),
    shared: integer("shared").array(),
  },
  (table) => [primaryKey({ columns: [table.day, table.scope, table.hash] })],
);

/**
 * Today's addresses, each a hash keyed like the visitors' (decision 055) with no page in it:
 * how many visitors it brought and its views in the current hour, so every instance holds one
 * address to a household's visitors and a reader's pace (docs/product/limits.md). Deleted with
 * the day's salt.
 */
export const dayAddresses = pgTable(
  "day_addresses",
  {
    day: date("day", { mode: "string" }).notNull(),
    hash: text("hash").notNull(),
    visitors: integer("visitors").notNull(),
    /** The hour (of the services' clock, since 1970) whose views `views` holds. */
    hour: integer("hour").notNull(),
    views: integer("views").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.hash] })],
);

/**
 * Exact counts per day: views and visitors of the site and of each path, visitors per source,
 * and per stanza (`subject` a poem's slug, `part` the stanza's index) readings, reached, shares
 * and link previews per platform. Instances add their counts in batches
 * (`count = count + excluded.count`), so the numbers are the sums across instances.
 */
export const dailyCounts = pgTable(
  "daily_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    metric: text("metric").notNull(),
    subject: text("subject").notNull().default(""),
    part: text("part").notNull().default(""),
    count: integer("count").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.metric, table.day, table.subject, table.part] }),
    // A poem's own view reads every metric of one subject.
    index("daily_counts_subject_idx").on(table.subject, table.metric, table.day),
  ],
);

/**
 * Clicks on a digest's links, per run and link (its position in the digest, the URL it leads
 * to): no subscriber is named here or in the link (docs/decisions/049).
 */
export const digestClicks = pgTable(
  "digest_clicks",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => mailRuns.id, { onDelete: "cascade" }),
    link: integer("link").notNull(),
    url: text("url").notNull(),
    clicks: integer("clicks").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.runId, table.link] })],
);

export const CHAPBOOK_TRIMS = ["a5", "5.5x8.5", "6x9"] as const;
export const CHAPBOOK_BUILD_STATES = ["queued", "building", "ready", "failed"] as const;

/**
 * A chapbook: poems in the poet's order, made into a print PDF and an EPUB by the background
 * builder (docs/product/chapbook.md, docs/decisions/068-chapbook-builds.md). The built files live
 * in the row, so every instance serves the same bytes; `built_from` is the fingerprint of what
 * they were made from, so they are made again only when that changes.
 */
export const chapbooks = pgTable("chapbooks", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  subtitle: text("subtitle"),
  dedication: text("dedication"),
  epigraph: text("epigraph"),
  acknowledgements: text("acknowledgements"),
  aboutPoet: text("about_poet"),
  trim: text("trim", { enum: CHAPBOOK_TRIMS }).notNull().default("a5"),
  bleed: boolean("bleed").notNull().default(false),
  /** Each poem starts on a right-hand page. */
  rectoStarts: boolean("recto_starts").notNull().default(false),
  downloadable: boolean("downloadable").notNull().default(false),
  withReadings: boolean("with_readings").notNull().default(false),
  /** The poet's uploaded cover (/objects/images/{id}); null sets a typographic one. */
  coverUrl: text("cover_url"),
  buildState: text("build_state", { enum: CHAPBOOK_BUILD_STATES }).notNull().default("queued"),
  /** Poems laid out so far in the running build, for the admin's progress. */
  buildProgress: integer("build_progress").notNull().default(0),
  buildError: text("build_error"),
  builtFrom: text("built_from"),
  builtAt: timestamp("built_at", { withTimezone: true }),
  /** The instance building it now, and until when (server/jobs/leased-rows.ts). */
  claimedBy: text("claimed_by"),
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  pdf: bytea("pdf"),
  epub: bytea("epub"),
  createdAt: createdAt(),
  /** Set by the poet's saves only, not by the builder's own writes: it is part of the fingerprint. */
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The poems of a chapbook, in order. */
export const chapbookPoems = pgTable(
  "chapbook_poems",
  {
    chapbookId: integer("chapbook_id")
      .notNull()
      .references(() => chapbooks.id, { onDelete: "cascade" }),
    poemId: integer("poem_id")
      .notNull()
      .references(() => poems.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.chapbookId, table.position] }),
    index("chapbook_poems_poem_idx").on(table.poemId),
  ],
);
