import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { instantInZone } from "../../common/dates.ts";
import type { InsightsSummary } from "../../common/schemas/insights.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { digestClicks, fediverseFollowers, mailRuns, subscriptions } from "../db/schema.ts";
import { digestLinkTargets } from "../mail/digest.ts";

const DAY_MS = 86_400_000;

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The insights' windows and what they show day by day besides the counts (docs/product/
 * insights.md): subscribers and followers at the end of each day, and each digest run's clicks.
 */
export function createInsightsOverTime(db: Database, config: Config, today: () => string) {
  const timeZone = config.siteTimezone;

  /** The window `[from, today]` of `days` days, and the instant it starts. */
  function windowOf(days: number) {
    const to = today();
    const from = addDays(to, -(days - 1));
    return { from, to, fromInstant: instantInZone(from, "00:00", timeZone) };
  }

  function everyDay(from: string, to: string): string[] {
    const list: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) list.push(day);
    return list;
  }

  async function subscribersOverTime(from: string, to: string) {
    const rows = await db
      .select({
        verifiedAt: subscriptions.verifiedAt,
        unsubscribedAt: subscriptions.unsubscribedAt,
      })
      .from(subscriptions)
      .where(eq(subscriptions.verified, true));
    const spans = rows.map((row) => [
      row.verifiedAt?.getTime() ?? 0,
      row.unsubscribedAt?.getTime() ?? Number.POSITIVE_INFINITY,
    ]);
    return everyDay(from, to).map((date) => {
      const end = instantInZone(addDays(date, 1), "00:00", timeZone).getTime();
      let count = 0;
      for (const [since = 0, until = 0] of spans) if (since < end && until >= end) count += 1;
      return { date, count };
    });
  }

  /**
   * Followers at the end of each day: an Undo, a block or a deleted account removes the
   * follower's row, so this counts those who follow today by the day they began (decision 049).
   */
  async function followersOverTime(from: string, to: string) {
    const rows = await db
      .select({ createdAt: fediverseFollowers.createdAt })
      .from(fediverseFollowers);
    const since = rows.map((row) => row.createdAt.getTime());
    return everyDay(from, to).map((date) => {
      const end = instantInZone(addDays(date, 1), "00:00", timeZone).getTime();
      return { date, count: since.filter((time) => time < end).length };
    });
  }

  async function digestRuns(fromInstant: Date): Promise<InsightsSummary["digest"]> {
    const runs = await db
      .select({
        id: mailRuns.id,
        subject: mailRuns.subject,
        createdAt: mailRuns.createdAt,
        sentCount: mailRuns.sentCount,
        content: mailRuns.content,
      })
      .from(mailRuns)
      .where(and(gte(mailRuns.createdAt, fromInstant), sql`${mailRuns.status} <> 'skipped'`))
      .orderBy(desc(mailRuns.createdAt));
    if (runs.length === 0) return [];
    const clicks = await db
      .select()
      .from(digestClicks)
      .where(
        inArray(
          digestClicks.runId,
          runs.map((run) => run.id),
        ),
      );
    return runs.map((run) => ({
      runId: run.id,
      subject: run.subject,
      createdAt: run.createdAt,
      sentCount: run.sentCount,
      clicks: digestLinkTargets(run.content, config.publicUrl.toString()).map((url, link) => ({
        url,
        count: clicks.find((click) => click.runId === run.id && click.link === link)?.clicks ?? 0,
      })),
    }));
  }

  return { windowOf, everyDay, subscribersOverTime, followersOverTime, digestRuns };
}
