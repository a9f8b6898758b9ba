import { z } from "zod/mini";
import { dateTime } from "./answer.ts";
import { digitsInText } from "./input.ts";

/**
 * What resonated (docs/product/insights.md, docs/decisions/049-counting-without-tracking.md):
 * counts per day, never a reader. GET /api/admin/insights and /api/admin/insights/poems/{slug}.
 */

/** The windows the admin offers, in days; the API takes any of them. */
export const INSIGHT_WINDOWS = [7, 30, 90] as const;
export const DEFAULT_INSIGHT_WINDOW = 30;
export const INSIGHT_WINDOW_MESSAGE = "days must be 7, 30 or 90";

/** `?days=7|30|90`, 30 when absent. */
export const insightsQuery = z.object({
  days: z._default(
    digitsInText(2, INSIGHT_WINDOW_MESSAGE).check(
      z.refine(
        (days) => (INSIGHT_WINDOWS as readonly number[]).includes(days),
        INSIGHT_WINDOW_MESSAGE,
      ),
    ),
    DEFAULT_INSIGHT_WINDOW,
  ),
});

/** Where readers came from, grouped (docs/product/insights.md, Sources). */
export const SOURCE_GROUPS = ["search", "fediverse", "email", "site", "direct"] as const;
export type SourceGroup = (typeof SOURCE_GROUPS)[number];

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

export const insightsSummary = z.object({
  days: z.int(),
  totals: z.object({ visitors: z.int(), views: z.int() }),
  daily: z.array(z.object({ date: day, visitors: z.int(), views: z.int() })),
  poems: z.array(
    z.object({ slug: z.string(), title: z.string(), visitors: z.int(), views: z.int() }),
  ),
  sources: z.array(
    z.object({ source: z.string(), group: z.enum(SOURCE_GROUPS), visitors: z.int() }),
  ),
  /** Verified, still-subscribed addresses at the end of each day. */
  subscribers: z.array(z.object({ date: day, count: z.int() })),
  /**
   * Fediverse followers at the end of each day, counting those who follow now (an unfollow
   * removes its follower); absent when FEDIVERSE is off.
   */
  followers: z.optional(z.array(z.object({ date: day, count: z.int() }))),
  digest: z.array(
    z.object({
      runId: z.int(),
      subject: z.string(),
      createdAt: dateTime,
      sentCount: z.int(),
      clicks: z.array(z.object({ url: z.string(), count: z.int() })),
    }),
  ),
});
export type InsightsSummary = z.output<typeof insightsSummary>;

export const stanzaInsight = z.object({
  index: z.int(),
  text: z.string(),
  /** Visits in which the stanza was on screen for at least 2 seconds. */
  reached: z.int(),
  echoes: z.int(),
  saves: z.int(),
  whispers: z.int(),
  /** Share, copy-link and save-image presses plus visits through the stanza's share link. */
  shares: z.int(),
  /** Fetches of the stanza's share card by a platform's link-preview bot, per platform. */
  previews: z.record(z.string(), z.int()),
  /** Likes of the stanza and replies to it from the fediverse (within `echoes`, `whispers`). */
  fediverse: z.object({ likes: z.int(), replies: z.int() }),
});
export type StanzaInsight = z.output<typeof stanzaInsight>;

export const poemInsights = z.object({
  slug: z.string(),
  title: z.string(),
  days: z.int(),
  visitors: z.int(),
  views: z.int(),
  /** Visits whose reading the stanza viewer reported: the reading curve's whole. */
  readings: z.int(),
  /** The share of reported visits that reached the last stanza (0 to 1). */
  readToEnd: z.number(),
  /**
   * From the fediverse: likes of the poem as a whole (a stanza's are in its row), boosts of
   * the poem or a stanza, and replies to the poem in all (one to the whole poem lands on its
   * first stanza).
   */
  fediverse: z.object({ likes: z.int(), boosts: z.int(), replies: z.int() }),
  stanzas: z.array(stanzaInsight),
});
export type PoemInsights = z.output<typeof poemInsights>;
