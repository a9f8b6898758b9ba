import { and, eq, lte, type Placeholder, type SQL, sql } from "drizzle-orm";
import { dayInZone, dayToDate, nextMidnightInZone } from "../../common/dates.ts";
import type { Actor } from "../services/actor.ts";
import type { Database } from "./client.ts";
import { embers, subscriptions } from "./schema.ts";

/**
 * Who may see what, as of when: the one place that answers it (DESIGN.md, "Who may see what").
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

/**
 * Poems the audience may open at their own address now. Every poem is out the moment it is
 * saved, for every audience; a poem's publication state will narrow this one condition.
 */
export function readablePoems(_audience: Audience, _now: Now): SQL {
  return sql`true`;
}

/** Poems in lists, feeds, the sitemap, themes and the digest: what any reader may see now. */
export function publishedPoems(now: Now): SQL {
  return readablePoems("anonymous", now);
}

/** Books, likewise: every book is out the moment it is saved. */
export function publishedBooks(_now: Date): SQL {
  return sql`true`;
}

/**
 * Embers readers are shown: dated today or before in the site's time zone. Later days are the
 * poet's schedule (DESIGN.md, Decisions).
 */
export function shownEmbers(now: Date, timeZone: string): SQL {
  return lte(embers.date, dayToDate(dayInZone(timeZone, now)));
}

/** Addresses the digest goes to: verified and still subscribed. */
export const activeSubscribers: SQL = and(
  eq(subscriptions.verified, true),
  eq(subscriptions.unsubscribed, false),
) as SQL;

/**
 * When what readers may see next changes by itself, with no write: the next ember day begins at
 * midnight in the site's time zone. A cached page is good until then, and no longer.
 */
export async function nextVisibilityChange(
  _db: Database,
  now: Date,
  timeZone: string,
): Promise<Date> {
  return nextMidnightInZone(timeZone, now);
}
