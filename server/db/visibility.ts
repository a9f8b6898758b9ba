import { and, eq, gt, isNotNull, isNull, lte, min, type Placeholder, type SQL } from "drizzle-orm";
import { dayInZone, dayToDate, nextMidnightInZone } from "../../common/dates.ts";
import type { Actor } from "../services/actor.ts";
import type { Database } from "./client.ts";
import {
  books,
  type echoes,
  embers,
  type journalEntries,
  poems,
  subscriptions,
  type whispers,
} from "./schema.ts";

/**
 * Who may see what, as of when: the one place that answers it (docs/ARCHITECTURE.md).
 * Every query that reads poems, books, embers or subscribers on a reader's behalf takes its
 * condition from here (lists, pages, themes, home, feed, sitemap, share page and card,
 * interactions, digest), so a new door cannot forget a rule, and a new rule is written once.
 */

/**
 * Who is asking. A page may differ between these three and nothing finer: the header's
 * Login/Logout, 'Journal (local)', the Admin link, and an admin's preview of what is not yet out.
 */
export type Audience = "anonymous" | "reader" | "admin";

export function audienceOf(actor: Actor): Audience {
  if (!actor) return "anonymous";
  return actor.role === "ADMIN" ? "admin" : "reader";
}

/** "Now": an instant, or a prepared statement's placeholder that is given one on each run. */
export type Now = Date | Placeholder;

/** How long a deleted poem or book stays in Recently deleted before it is purged. */
export const RECENTLY_DELETED_DAYS = 30;
const RECENTLY_DELETED_MS = RECENTLY_DELETED_DAYS * 24 * 60 * 60 * 1000;

/**
 * Not deleted. A deleted poem or book is nobody's to see, the poet's included, wherever it
 * would show (pages, lists, feed, sitemap, search, API, share cards, interactions): it lives
 * only in the admin's Recently deleted list until it is restored or purged.
 */
export const isLive = (table: typeof poems | typeof books): SQL => isNull(table.deletedAt);

/** Deleted, and still restorable as of `now`: what Recently deleted lists. */
export const recentlyDeleted = (table: typeof poems | typeof books, now: Date): SQL =>
  and(isNotNull(table.deletedAt), gt(table.deletedAt, purgeCutoff(now))) as SQL;

/** Deleted before this instant: past restoring, and purged by the database upkeep. */
export const purgeCutoff = (now: Date): Date => new Date(now.getTime() - RECENTLY_DELETED_MS);

/** When a poem or book deleted at `deletedAt` is purged. */
export const purgeAt = (deletedAt: Date): Date =>
  new Date(deletedAt.getTime() + RECENTLY_DELETED_MS);

/**
 * A poem is published when it is live, no draft and its publishAt has come; until then it is a
 * draft (never shown to readers) or scheduled (shown from publishAt on).
 */
const isPublished = (table: typeof poems | typeof books, now: Now): SQL =>
  and(isLive(table), eq(table.draft, false), lte(table.publishAt, now)) as SQL;

/**
 * Poems the audience may open at their own address now: published ones, and for the admin every
 * live poem, so the poet can see a draft or a scheduled poem exactly as readers will (a render
 * that answers `private, no-store`, so the page cache, which keeps one copy of a page per audience
 * since decision 024, never keeps it).
 */
export function readablePoems(audience: Audience, now: Now): SQL {
  return audience === "admin" ? isLive(poems) : isPublished(poems, now);
}

/**
 * readablePoems for a poem already in memory (an interaction's poem, kept until content
 * changes): the same rule, side by side with it so the two cannot drift apart.
 */
export function isReadable(
  poem: { draft: boolean; publishAt: Date; deletedAt: Date | null },
  audience: Audience,
  now: Date,
): boolean {
  if (poem.deletedAt !== null) return false;
  return audience === "admin" || (!poem.draft && poem.publishAt.getTime() <= now.getTime());
}

/** Poems in lists, feeds, the sitemap, themes and the digest: what any reader may see now. */
export function publishedPoems(now: Now): SQL {
  return isPublished(poems, now);
}

/** Books readers see now: the same rule as poems. */
export function publishedBooks(now: Now): SQL {
  return isPublished(books, now);
}

/**
 * Embers readers are shown: dated today or before in the site's time zone. Later days are the
 * poet's schedule (docs/product/README.md, Conventions that hold everywhere).
 */
export function shownEmbers(now: Date, timeZone: string): SQL {
  return lte(embers.date, dayToDate(dayInZone(timeZone, now)));
}

/**
 * Readers' echoes, whispers and journal entries on a stanza the poem still has. Those on a
 * stanza a revision removed are kept for the poet, and for a restore, but shown to no one.
 */
export const onPoemStanzas = (table: typeof echoes | typeof whispers | typeof journalEntries) =>
  isNull(table.removedWithVersionId);

/** Addresses the digest goes to: verified and still subscribed. */
export const activeSubscribers: SQL = and(
  eq(subscriptions.verified, true),
  eq(subscriptions.unsubscribed, false),
) as SQL;

/**
 * When what readers may see next changes by itself, with no write: the next scheduled poem or
 * book comes due, or the next ember day begins at midnight in the site's time zone, whichever is
 * first. A cached page is good until then, and no longer, on every instance alike.
 */
export async function nextVisibilityChange(
  db: Database,
  now: Date,
  timeZone: string,
): Promise<Date> {
  const firstDue = (table: typeof poems | typeof books) =>
    db
      .select({ at: min(table.publishAt) })
      .from(table)
      .where(and(isLive(table), eq(table.draft, false), gt(table.publishAt, now)));
  const [[poem], [book]] = await Promise.all([firstDue(poems), firstDue(books)]);
  const instants = [nextMidnightInZone(timeZone, now), poem?.at, book?.at];
  return new Date(Math.min(...instants.filter((at) => at != null).map((at) => at.getTime())));
}
