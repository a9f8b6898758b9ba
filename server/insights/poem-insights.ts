import { and, count, eq, gte, isNull, or, sql } from "drizzle-orm";
import type { PoemInsights, StanzaInsight } from "../../common/schemas/insights.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { dailyCounts, echoes, journalEntries, poemBoosts, poems, whispers } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { METRICS } from "./counting.ts";
import { POEM_PATH_PREFIX, toInt } from "./daily-counts.ts";
import type { createInsightsOverTime } from "./over-time.ts";

/** The poem's counts in the window, summed: its page's (by path) and its stanzas' (by slug). */
function readCounts(db: Database, slug: string, path: string, from: string) {
  const total = sql<number>`sum(${dailyCounts.count})`;
  return db
    .select({
      subject: dailyCounts.subject,
      metric: dailyCounts.metric,
      part: dailyCounts.part,
      total,
    })
    .from(dailyCounts)
    .where(
      and(
        or(eq(dailyCounts.subject, slug), eq(dailyCounts.subject, path)),
        gte(dailyCounts.day, from),
      ),
    )
    .groupBy(dailyCounts.subject, dailyCounts.metric, dailyCounts.part);
}

type CountRow = Awaited<ReturnType<typeof readCounts>>[number];

/** One count of the rows read, 0 where there is none. */
const countIn =
  (rows: CountRow[]) =>
  (subject: string, metric: string, part = "") =>
    toInt(
      rows.find((row) => row.subject === subject && row.metric === metric && row.part === part)
        ?.total,
    );

/** Per stanza key: every one, and those from the fediverse (`remote`, when it says). */
async function perStanza(
  db: Database,
  poemId: number,
  fromInstant: Date,
  table: typeof echoes | typeof journalEntries | typeof whispers,
  remote?: typeof echoes.remoteActivityId | typeof whispers.remoteNoteId,
) {
  const found = await db
    .select({
      index: table.stanzaIndex,
      count: sql<number>`count(*)`,
      remote: remote ? sql<number>`count(${remote})` : sql<number>`0`,
    })
    .from(table)
    .where(
      and(
        eq(table.poemId, poemId),
        isNull(table.removedWithVersionId),
        gte(table.createdAt, fromInstant),
      ),
    )
    .groupBy(table.stanzaIndex);
  return {
    all: new Map(found.map((row) => [row.index, toInt(row.count)])),
    remote: new Map(found.map((row) => [row.index, toInt(row.remote)])),
  };
}

type StanzaCounts = Awaited<ReturnType<typeof perStanza>>;

/** Each stanza's reach, interactions, shares and previews. */
function stanzaInsights(
  poem: { slug: string; stanzas: string[] },
  rows: CountRow[],
  interactions: { echoed: StanzaCounts; saved: StanzaCounts; whispered: StanzaCounts },
): StanzaInsight[] {
  const countOf = countIn(rows);
  const { echoed, saved, whispered } = interactions;
  return poem.stanzas.map((text, index) => {
    const part = String(index);
    const previews: Record<string, number> = {};
    for (const row of rows) {
      if (
        row.subject === poem.slug &&
        row.part === part &&
        row.metric.startsWith(METRICS.previewPrefix)
      ) {
        previews[row.metric.slice(METRICS.previewPrefix.length)] = toInt(row.total);
      }
    }
    return {
      index,
      text,
      reached: countOf(poem.slug, METRICS.reached, part),
      echoes: echoed.all.get(part) ?? 0,
      saves: saved.all.get(part) ?? 0,
      whispers: whispered.all.get(part) ?? 0,
      shares:
        countOf(poem.slug, METRICS.shares, part) + countOf(poem.slug, METRICS.shareVisits, part),
      previews,
      fediverse: {
        likes: echoed.remote.get(part) ?? 0,
        replies: whispered.remote.get(part) ?? 0,
      },
    };
  });
}

/** One poem's report: its page's visits, its readings and each stanza's. */
export function poemInsights(
  deps: ServiceDeps,
  flush: () => Promise<void>,
  overTime: ReturnType<typeof createInsightsOverTime>,
) {
  const { db } = deps;
  return {
    /** One poem over the last `days` days (GET /api/admin/insights/poems/{slug}). */
    async poem(_admin: AdminActor, slug: string, days: number): Promise<PoemInsights> {
      await flush();
      const [poem] = await db
        .select({ id: poems.id, slug: poems.slug, title: poems.title, stanzas: poems.stanzas })
        .from(poems)
        .where(and(eq(poems.slug, slug), isLive(poems)));
      if (!poem) throw notFound("Poem not found");
      const { from, fromInstant } = overTime.windowOf(days);
      const path = `${POEM_PATH_PREFIX}${poem.slug}`;
      const rows = await readCounts(db, poem.slug, path, from);
      const countOf = countIn(rows);
      const [echoed, saved, whispered, [boosted]] = await Promise.all([
        perStanza(db, poem.id, fromInstant, echoes, echoes.remoteActivityId),
        perStanza(db, poem.id, fromInstant, journalEntries),
        perStanza(db, poem.id, fromInstant, whispers, whispers.remoteNoteId),
        db
          .select({ count: count() })
          .from(poemBoosts)
          .where(and(eq(poemBoosts.poemId, poem.id), gte(poemBoosts.createdAt, fromInstant))),
      ]);
      const readings = countOf(poem.slug, METRICS.readings);
      const stanzas = stanzaInsights(poem, rows, { echoed, saved, whispered });
      const last = stanzas[stanzas.length - 1];
      return {
        slug: poem.slug,
        title: poem.title,
        days,
        views: countOf(path, METRICS.views),
        visitors: countOf(path, METRICS.visitors),
        readings,
        readToEnd: readings > 0 && last ? Math.min(1, last.reached / readings) : 0,
        fediverse: {
          likes: echoed.remote.get("") ?? 0,
          boosts: boosted?.count ?? 0,
          replies: stanzas.reduce((sum, stanza) => sum + stanza.fediverse.replies, 0),
        },
        stanzas,
      };
    },
  };
}
