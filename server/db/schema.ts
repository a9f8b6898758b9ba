import { type SQL, sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
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
import type { BookPage } from "../../common/schemas/books.ts";
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

/** PostgreSQL's text-search document, which Drizzle has no column builder for. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * What search reads (docs/decisions/020-search.md): a stored document kept by PostgreSQL itself,
 * so no write path can forget it, built by the search functions the search migration defines
 * (one text-search configuration, accents folded). The GIN indexes skip the pending list
 * (fastupdate off): content is written rarely and searched often.
 */
const searchVector = (name: string, document: SQL) => tsvector(name).generatedAlwaysAs(document);

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
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
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

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
});

export const poems = pgTable(
  "poems",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: text("title").notNull(),
    slug: text("slug").notNull().unique(),
    stanzas: jsonb("stanzas").$type<string[]>().notNull(),
    audioUrl: text("audio_url"),
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
    text: text("text").notNull(),
    isApproved: boolean("is_approved").notNull().default(true),
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
     * try next, or until when one instance is trying. Null once it was handed over.
     */
    verificationDueAt: timestamp("verification_due_at", { withTimezone: true }),
    verificationAttempts: integer("verification_attempts").notNull().default(0),
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
    submissionId: integer("submission_id")
      .unique()
      .references(() => guestSubmissions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("guest_voices_position_idx").on(table.position)],
);

/**
 * Counting without tracking (docs/decisions/049-counting-without-tracking.md): the day's salt for
 * telling visitors apart, one row per day in the site's time zone, made by the first instance
 * that needs it and deleted once the day is over, with the day's visitor hashes.
 */
export const visitSalts = pgTable("visit_salts", {
  day: date("day", { mode: "string" }).primaryKey(),
  salt: text("salt").notNull(),
});

/**
 * Today's visitors, as hashes of (the day's salt, address, user agent, site) per scope (the
 * site, a path, a source), so a visitor counts once a day whichever instance answered them.
 * Deleted with the day's salt; what outlives the day is only the count in `daily_counts`.
 */
export const dayVisitors = pgTable(
  "day_visitors",
  {
    day: date("day", { mode: "string" }).notNull(),
    scope: text("scope").notNull(),
    hash: text("hash").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.scope, table.hash] })],
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
