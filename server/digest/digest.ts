import { and, count, desc, eq, gt, gte, inArray, isNull, lte, ne, sql } from "drizzle-orm";
import {
  addDays,
  dayInZone,
  dayToDate,
  formatMonthDay,
  instantInZone,
  weekdayOf,
} from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import type {
  DigestContent,
  DigestRun,
  DigestScheduleInput,
  DigestScheduleView,
} from "../../common/schemas/digest.ts";
import type { EmberService } from "../content/embers.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, isServiceError, isUniqueViolation, notFound } from "../core/errors.ts";
import {
  digestDeliveries,
  digestSchedule,
  echoes,
  embers,
  mailRuns,
  poems,
  subscriptions,
} from "../db/schema.ts";
import { activeSubscribers, onPoemStanzas, publishedPoems, shownEmbers } from "../db/visibility.ts";
import { createPeriodicLoop } from "../jobs/loop.ts";
import { digestEmail } from "../mail/digest.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import type { DigestSender } from "./digest-sender.ts";

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const TOP_ECHOED_STANZAS = 2;
const NEW_POEMS_MAX = 20;
const RUNS_LISTED = 20;
/** How often each instance looks whether the weekly digest is due (well within a minute). */
const SCHEDULE_POLL_MS = 20_000;
/**
 * A scheduled send that no instance made within this long of its time (the site was down) is
 * recorded as missed, not sent days late.
 */
const SCHEDULE_GRACE_MS = 24 * 60 * 60 * 1000;

/** A fixed sample (docs/product/digest.md), for a site with nothing of its own yet. */
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
  deps: ServiceDeps & { embers: EmberService; sender: DigestSender; mailSite: MailSiteSource },
) {
  const { db, config, embers: emberService, sender, now } = deps;

  async function featuredEmber(): Promise<DigestContent["featuredEmber"] | undefined> {
    try {
      const ember = await emberService.getFeaturedEmber();
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
        and(
          gte(echoes.createdAt, since),
          ne(echoes.stanzaIndex, ""),
          onPoemStanzas(echoes),
          publishedPoems(deps.now()),
        ),
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
    return (
      db
        .select({ title: poems.title, slug: poems.slug, stanzas: poems.stanzas })
        .from(poems)
        // An imported poem is history, not news (docs/decisions/052-the-import-job.md).
        .where(
          and(gte(poems.publishAt, since), publishedPoems(deps.now()), isNull(poems.importedAt)),
        )
        .orderBy(desc(poems.publishAt))
        .limit(NEW_POEMS_MAX)
    );
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
      scheduledFor: run.scheduledFor,
      skipReason: run.skipReason,
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

  /**
   * Writes a run and one delivery for every active subscriber, in one transaction. A scheduled
   * run that another instance (or an earlier poll) already wrote for the same instant is not
   * written again: undefined.
   */
  async function queueRun(values: {
    subject: string;
    content: DigestContent;
    createdBy?: string;
    scheduledFor?: Date;
  }): Promise<number | undefined> {
    return db.transaction(async (tx) => {
      const [run] = await tx
        .insert(mailRuns)
        .values(values)
        .onConflictDoNothing({ target: mailRuns.scheduledFor })
        .returning({ id: mailRuns.id });
      if (!run) return undefined;
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
            : { recipientCount, status: "sent", completedAt: now() },
        )
        .where(eq(mailRuns.id, run.id));
      return run.id;
    });
  }

  /** A scheduled week that sends nothing, listed with the runs with its reason. */
  async function recordSkippedWeek(scheduledFor: Date, subject: string, skipReason: string) {
    await db
      .insert(mailRuns)
      .values({
        subject,
        content: SAMPLE_DIGEST_CONTENT,
        status: "skipped",
        skipReason,
        scheduledFor,
        completedAt: now(),
      })
      .onConflictDoNothing({ target: mailRuns.scheduledFor });
  }

  /** The scheduled send times around `at`: the last one at or before it, and the next after. */
  function scheduledSends(schedule: { weekday: number; time: string }, at: Date) {
    const zone = config.siteTimezone;
    const today = dayInZone(zone, at);
    const sendOn = (day: string) => instantInZone(day, schedule.time, zone);
    let day = addDays(today, -((weekdayOf(today) - schedule.weekday + 7) % 7));
    if (sendOn(day) > at) day = addDays(day, -7);
    return { last: sendOn(day), next: sendOn(addDays(day, 7)) };
  }

  async function readSchedule(): Promise<DigestScheduleView> {
    const [row] = await db.select().from(digestSchedule);
    const schedule = row ?? { enabled: false, weekday: 0, time: "09:00" };
    return {
      enabled: schedule.enabled,
      weekday: schedule.weekday,
      time: schedule.time,
      timezone: config.siteTimezone,
      nextSendAt: schedule.enabled ? scheduledSends(schedule, now()).next : null,
    };
  }

  /** Whether anything came out in the seven days up to `until`: a poem, an ember or an echo. */
  async function hasNewsInWeekBefore(until: Date): Promise<boolean> {
    const since = new Date(until.getTime() - WEEK_MS);
    const untilDay = dayToDate(dayInZone(config.siteTimezone, until));
    const [poem, ember, echo] = await Promise.all([
      db
        .select({ id: poems.id })
        .from(poems)
        .where(
          and(
            publishedPoems(until),
            gt(poems.publishAt, since),
            lte(poems.publishAt, until),
            isNull(poems.importedAt),
          ),
        )
        .limit(1),
      db
        .select({ id: embers.id })
        .from(embers)
        .where(
          and(
            shownEmbers(until, config.siteTimezone),
            gt(embers.date, dayToDate(addDays(dayInZone(config.siteTimezone, until), -7))),
            lte(embers.date, untilDay),
          ),
        )
        .limit(1),
      db
        .select({ id: echoes.id })
        .from(echoes)
        .where(and(gt(echoes.createdAt, since), lte(echoes.createdAt, until)))
        .limit(1),
    ]);
    return poem.length + ember.length + echo.length > 0;
  }

  /**
   * Sends this week's digest when its scheduled time has come: exactly one run per scheduled
   * time, whatever the number of instances or restarts (mail_runs.scheduled_for is unique). A
   * week with nothing new, or nobody to send to, is recorded as skipped with its reason; a time
   * before the schedule was saved is not sent for.
   */
  async function sendScheduledDigest(): Promise<void> {
    const [schedule] = await db.select().from(digestSchedule);
    if (!schedule?.enabled) return;
    const asOf = now();
    const due = scheduledSends(schedule, asOf).last;
    if (due < schedule.updatedAt) return;
    const [done] = await db
      .select({ id: mailRuns.id })
      .from(mailRuns)
      .where(eq(mailRuns.scheduledFor, due));
    if (done) return;
    const subject = `${(await deps.mailSite()).name}: the week of ${formatMonthDay(dayInZone(config.siteTimezone, due))}`;
    if (asOf.getTime() - due.getTime() > SCHEDULE_GRACE_MS) {
      return recordSkippedWeek(due, subject, "Missed: the site was not running at the time");
    }
    if (!(await hasNewsInWeekBefore(due))) {
      return recordSkippedWeek(due, subject, "Nothing new this week: no poem, ember or echo");
    }
    const [audience] = await db
      .select({ total: count() })
      .from(subscriptions)
      .where(activeSubscribers);
    if (!audience?.total) {
      return recordSkippedWeek(due, subject, "No verified subscribers");
    }
    try {
      const runId = await queueRun({
        subject,
        content: await weeklyContent(due),
        scheduledFor: due,
      });
      if (runId !== undefined) {
        deps.logger.info({ runId, scheduledFor: due }, "scheduled digest queued");
        sender.wake();
      }
    } catch (error) {
      // A manual run is still sending: this week's goes out at a later poll, once it is done.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  return {
    content: (_admin: AdminActor) => weeklyContent(now()),

    async preview(_admin: AdminActor, content: DigestContent): Promise<{ html: string }> {
      const { html } = digestEmail(await deps.mailSite(), content, {
        publicUrl: config.publicUrl.toString(),
        unsubscribeUrl: new URL(pages.unsubscribe, config.publicUrl),
      });
      return { html };
    },

    /**
     * Queues this week's digest for every verified, still-subscribed address. One run sends at a
     * time, so a double click cannot mail everyone twice.
     */
    async send(admin: AdminActor, subject: string): Promise<DigestRun> {
      let runId: number | undefined;
      try {
        runId = await queueRun({
          subject,
          content: await weeklyContent(now()),
          createdBy: admin.id,
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw conflict("A digest is already being sent. Wait for it to finish or resume it.");
        }
        throw error;
      }
      if (runId === undefined) throw new Error("mail run insert returned nothing");
      sender.wake();
      return runView(runId);
    },

    getSchedule: (_admin: AdminActor) => readSchedule(),

    /** Turns automatic sending on or off, and sets its weekday and time (site time zone). */
    async setSchedule(_admin: AdminActor, input: DigestScheduleInput): Promise<DigestScheduleView> {
      await db
        .insert(digestSchedule)
        .values({ id: 1, ...input, updatedAt: now() })
        .onConflictDoUpdate({ target: digestSchedule.id, set: { ...input, updatedAt: now() } });
      return readSchedule();
    },

    sendScheduledDigest,
    /** Every instance looks for a due week; the unique scheduled time lets only one send it. */
    scheduleLoop: createPeriodicLoop({
      name: "digest schedule",
      run: sendScheduledDigest,
      everyMs: SCHEDULE_POLL_MS,
      logger: deps.logger,
    }),

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
        // Due at once by the clock the sender claims by: the database's (digest-sender.ts).
        .set({ attempts: 0, nextAttemptAt: sql`now()` })
        .where(and(eq(digestDeliveries.runId, runId), eq(digestDeliveries.status, "pending")));
      sender.wake();
      return runView(runId);
    },
  };
}

export type DigestService = ReturnType<typeof createDigestService>;
