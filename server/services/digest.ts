import { and, count, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import type { DigestContent, DigestRun } from "../../common/schemas/digest.ts";
import { digestDeliveries, echoes, mailRuns, poems, subscriptions } from "../db/schema.ts";
import { activeSubscribers, publishedPoems } from "../db/visibility.ts";
import { digestEmail } from "../mail/digest.ts";
import type { AdminActor } from "./actor.ts";
import type { ServiceDeps } from "./deps.ts";
import type { DigestSender } from "./digest-sender.ts";
import type { EmberService } from "./embers.ts";
import { conflict, isServiceError, isUniqueViolation, notFound } from "./errors.ts";

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const TOP_ECHOED_STANZAS = 2;
const NEW_POEMS_MAX = 20;
const RUNS_LISTED = 20;

/** The spec's fixed sample (SPEC.md §2, Digest admin), for a site with nothing of its own yet. */
export const SAMPLE_DIGEST_CONTENT: DigestContent = {
  featuredEmber: {
    text: "Even the smallest coal remembers the whole fire.",
    date: "2026-01-05T00:00:00.000Z",
  },
  topEchoedStanzas: [
    {
      poem: { title: "Lanterns in the Rain", slug: "lanterns-in-the-rain" },
      stanza: "We carried light the way the river / carries stones, / slowly, and without asking.",
      stanzaIndex: 0,
      echoCount: 42,
    },
    {
      poem: { title: "What the Kettle Knows", slug: "what-the-kettle-knows" },
      stanza: "Morning is a small bravery / repeated until it sings.",
      stanzaIndex: 2,
      echoCount: 27,
    },
  ],
  newPoems: [
    {
      title: "Letters to the Tide",
      slug: "letters-to-the-tide",
      stanzas: ["I wrote your name in salt / and the sea learned to spell it."],
    },
  ],
};

/**
 * The weekly digest: its content drawn from the site, the preview, and sending runs. The
 * sending itself happens in the background (digest-sender.ts).
 */
export function createDigestService(
  deps: ServiceDeps & { embers: EmberService; sender: DigestSender },
) {
  const { db, config, embers, sender } = deps;

  async function featuredEmber(): Promise<DigestContent["featuredEmber"] | undefined> {
    try {
      const ember = await embers.getFeaturedEmber();
      return { text: ember.text, date: ember.date.toISOString() };
    } catch (error) {
      if (isServiceError(error) && error.status === 404) return undefined;
      throw error;
    }
  }

  async function topEchoedStanzas(since: Date): Promise<DigestContent["topEchoedStanzas"]> {
    const echoCount = count(echoes.id);
    const rows = await db
      .select({
        title: poems.title,
        slug: poems.slug,
        stanzas: poems.stanzas,
        stanzaIndex: echoes.stanzaIndex,
        echoCount,
      })
      .from(echoes)
      .innerJoin(poems, eq(poems.id, echoes.poemId))
      .where(
        and(gte(echoes.createdAt, since), ne(echoes.stanzaIndex, ""), publishedPoems(deps.now())),
      )
      .groupBy(poems.id, echoes.stanzaIndex)
      .orderBy(desc(echoCount), desc(sql`max(${echoes.createdAt})`))
      .limit(TOP_ECHOED_STANZAS);
    return rows.flatMap((row) => {
      const stanzaIndex = Number(row.stanzaIndex);
      const stanza = row.stanzas[stanzaIndex];
      return stanza === undefined
        ? []
        : [
            {
              poem: { title: row.title, slug: row.slug },
              stanza,
              stanzaIndex,
              echoCount: row.echoCount,
            },
          ];
    });
  }

  async function newPoems(since: Date): Promise<DigestContent["newPoems"]> {
    return db
      .select({ title: poems.title, slug: poems.slug, stanzas: poems.stanzas })
      .from(poems)
      .where(and(gte(poems.createdAt, since), publishedPoems(deps.now())))
      .orderBy(desc(poems.createdAt))
      .limit(NEW_POEMS_MAX);
  }

  async function runView(runId: number): Promise<DigestRun> {
    const [run] = await listRuns([runId]);
    if (!run) throw notFound("Digest run not found");
    return run;
  }

  async function listRuns(ids?: number[]): Promise<DigestRun[]> {
    const runs = await db
      .select()
      .from(mailRuns)
      .where(ids ? inArray(mailRuns.id, ids) : undefined)
      .orderBy(desc(mailRuns.createdAt), desc(mailRuns.id))
      .limit(RUNS_LISTED);
    if (runs.length === 0) return [];
    const tallies = await db
      .select({ runId: digestDeliveries.runId, status: digestDeliveries.status, total: count() })
      .from(digestDeliveries)
      .where(
        inArray(
          digestDeliveries.runId,
          runs.map((run) => run.id),
        ),
      )
      .groupBy(digestDeliveries.runId, digestDeliveries.status);
    const tally = (runId: number, ...statuses: string[]) =>
      tallies
        .filter((row) => row.runId === runId && statuses.includes(row.status))
        .reduce((sum, row) => sum + row.total, 0);
    return runs.map((run) => ({
      id: run.id,
      subject: run.subject,
      status: run.status,
      pausedReason: run.pausedReason,
      recipientCount: run.recipientCount,
      sentCount: tally(run.id, "sent"),
      failedCount: tally(run.id, "failed"),
      skippedCount: tally(run.id, "skipped"),
      pendingCount: tally(run.id, "pending", "sending"),
      createdAt: run.createdAt,
      completedAt: run.completedAt,
    }));
  }

  /**
   * What this week's digest would hold: the featured ember, the two most-echoed stanzas and
   * the poems of the past seven days; the spec's sample only when the site has none of it.
   */
  async function weeklyContent(now: Date): Promise<DigestContent> {
    const since = new Date(now.getTime() - WEEK_MS);
    const [ember, stanzas, poemsOfTheWeek] = await Promise.all([
      featuredEmber(),
      topEchoedStanzas(since),
      newPoems(since),
    ]);
    if (!ember && stanzas.length === 0 && poemsOfTheWeek.length === 0) {
      return SAMPLE_DIGEST_CONTENT;
    }
    return {
      featuredEmber: ember ?? SAMPLE_DIGEST_CONTENT.featuredEmber,
      topEchoedStanzas: stanzas,
      newPoems: poemsOfTheWeek,
    };
  }

  return {
    content: (_admin: AdminActor, now = new Date()) => weeklyContent(now),

    preview(_admin: AdminActor, content: DigestContent): { html: string } {
      const { html } = digestEmail(config.siteName, content, {
        publicUrl: config.publicUrl.toString(),
        unsubscribeUrl: new URL("/unsubscribe", config.publicUrl),
      });
      return { html };
    },

    /**
     * Queues this week's digest for every verified, still-subscribed address: one delivery row
     * each, written with the run in one transaction. One run sends at a time, so a double click
     * cannot mail everyone twice.
     */
    async send(admin: AdminActor, subject: string): Promise<DigestRun> {
      const content = await weeklyContent(new Date());
      let runId: number;
      try {
        runId = await db.transaction(async (tx) => {
          const [run] = await tx
            .insert(mailRuns)
            .values({ subject, content, createdBy: admin.id })
            .returning({ id: mailRuns.id });
          if (!run) throw new Error("mail run insert returned nothing");
          await tx.execute(
            sql`insert into ${digestDeliveries} (run_id, subscription_id)
                select ${run.id}, ${subscriptions.id} from ${subscriptions}
                where ${activeSubscribers}`,
          );
          const [queued] = await tx
            .select({ total: count() })
            .from(digestDeliveries)
            .where(eq(digestDeliveries.runId, run.id));
          const recipientCount = queued?.total ?? 0;
          await tx
            .update(mailRuns)
            .set(
              recipientCount > 0
                ? { recipientCount }
                : { recipientCount, status: "sent", completedAt: new Date() },
            )
            .where(eq(mailRuns.id, run.id));
          return run.id;
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw conflict("A digest is already being sent. Wait for it to finish or resume it.");
        }
        throw error;
      }
      sender.wake();
      return runView(runId);
    },

    listRuns: (_admin: AdminActor) => listRuns(),

    /** How many addresses a digest sent now would go to: verified and still subscribed. */
    async countRecipients(_admin: AdminActor): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(subscriptions)
        .where(activeSubscribers);
      return row?.total ?? 0;
    },

    /** Sends a paused run's remaining deliveries again, each with a fresh set of attempts. */
    async resume(_admin: AdminActor, runId: number): Promise<DigestRun> {
      const resumed = await db
        .update(mailRuns)
        .set({ status: "sending", pausedReason: null })
        .where(and(eq(mailRuns.id, runId), eq(mailRuns.status, "paused")))
        .returning({ id: mailRuns.id });
      if (resumed.length === 0) {
        await runView(runId);
        throw conflict("Only a paused digest can be resumed");
      }
      await db
        .update(digestDeliveries)
        .set({ attempts: 0, nextAttemptAt: new Date() })
        .where(and(eq(digestDeliveries.runId, runId), eq(digestDeliveries.status, "pending")));
      sender.wake();
      return runView(runId);
    },
  };
}

export type DigestService = ReturnType<typeof createDigestService>;
