import { count, eq } from "drizzle-orm";
import {
  addDays,
  dayInZone,
  formatMonthDay,
  instantInZone,
  weekdayOf,
} from "../../common/dates.ts";
import type { DigestScheduleInput, DigestScheduleView } from "../../common/schemas/digest.ts";
import type { EmberService } from "../content/embers.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { isUniqueViolation } from "../core/errors.ts";
import { digestSchedule, mailRuns, subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";
import { createPeriodicLoop } from "../jobs/loop.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { queueRun, recordSkippedWeek } from "./digest-runs.ts";
import type { DigestSender } from "./digest-sender.ts";
import { hasNewsInWeekBefore, weeklyContent } from "./weekly-content.ts";

/** How often each instance looks whether the weekly digest is due (well within a minute). */
const SCHEDULE_POLL_MS = 20_000;
/**
 * A scheduled send that no instance made within this long of its time (the site was down) is
 * recorded as missed, not sent days late.
 */
const SCHEDULE_GRACE_MS = 24 * 60 * 60 * 1000;

type ScheduleDeps = ServiceDeps & {
  embers: EmberService;
  sender: DigestSender;
  mailSite: MailSiteSource;
};

/** The scheduled send times around `at`: the last one at or before it, and the next after. */
function scheduledSends(deps: ServiceDeps, schedule: { weekday: number; time: string }, at: Date) {
  const zone = deps.config.siteTimezone;
  const today = dayInZone(zone, at);
  const sendOn = (day: string) => instantInZone(day, schedule.time, zone);
  let day = addDays(today, -((weekdayOf(today) - schedule.weekday + 7) % 7));
  if (sendOn(day) > at) day = addDays(day, -7);
  return { last: sendOn(day), next: sendOn(addDays(day, 7)) };
}

async function readSchedule(deps: ServiceDeps): Promise<DigestScheduleView> {
  const [row] = await deps.db.select().from(digestSchedule);
  const schedule = row ?? { enabled: false, weekday: 0, time: "09:00" };
  return {
    enabled: schedule.enabled,
    weekday: schedule.weekday,
    time: schedule.time,
    timezone: deps.config.siteTimezone,
    nextSendAt: schedule.enabled ? scheduledSends(deps, schedule, deps.now()).next : null,
  };
}

/**
 * Sends this week's digest when its scheduled time has come: exactly one run per scheduled
 * time, whatever the number of instances or restarts (mail_runs.scheduled_for is unique). A
 * week with nothing new, or nobody to send to, is recorded as skipped with its reason; a time
 * before the schedule was saved is not sent for.
 */
async function sendScheduledDigest(deps: ScheduleDeps): Promise<void> {
  const { db, config, now } = deps;
  const [schedule] = await db.select().from(digestSchedule);
  if (!schedule?.enabled) return;
  const asOf = now();
  const due = scheduledSends(deps, schedule, asOf).last;
  if (due < schedule.updatedAt) return;
  const [done] = await db
    .select({ id: mailRuns.id })
    .from(mailRuns)
    .where(eq(mailRuns.scheduledFor, due));
  if (done) return;
  const subject = `${(await deps.mailSite()).name}: the week of ${formatMonthDay(dayInZone(config.siteTimezone, due))}`;
  if (asOf.getTime() - due.getTime() > SCHEDULE_GRACE_MS) {
    return recordSkippedWeek(deps, due, subject, "Missed: the site was not running at the time");
  }
  if (!(await hasNewsInWeekBefore(deps, due))) {
    return recordSkippedWeek(deps, due, subject, "Nothing new this week: no poem, ember or echo");
  }
  const [audience] = await db
    .select({ total: count() })
    .from(subscriptions)
    .where(activeSubscribers);
  if (!audience?.total) {
    return recordSkippedWeek(deps, due, subject, "No verified subscribers");
  }
  try {
    const runId = await queueRun(deps, {
      subject,
      content: await weeklyContent(deps, due),
      scheduledFor: due,
    });
    if (runId !== undefined) {
      deps.logger.info({ runId, scheduledFor: due }, "scheduled digest queued");
      deps.sender.wake();
    }
  } catch (error) {
    // A manual run is still sending: this week's goes out at a later poll, once it is done.
    if (!isUniqueViolation(error)) throw error;
  }
}

/**
 * The weekly schedule (docs/decisions/022-publication-and-digest-schedule.md): the poet's
 * setting, and the sends it makes on every instance.
 */
export function weeklySchedule(deps: ScheduleDeps) {
  const { db, now } = deps;
  const sendDue = () => sendScheduledDigest(deps);
  return {
    getSchedule: (_admin: AdminActor) => readSchedule(deps),

    /** Turns automatic sending on or off, and sets its weekday and time (site time zone). */
    async setSchedule(_admin: AdminActor, input: DigestScheduleInput): Promise<DigestScheduleView> {
      await db
        .insert(digestSchedule)
        .values({ id: 1, ...input, updatedAt: now() })
        .onConflictDoUpdate({ target: digestSchedule.id, set: { ...input, updatedAt: now() } });
      return readSchedule(deps);
    },

    sendScheduledDigest: sendDue,
    /** Every instance looks for a due week; the unique scheduled time lets only one send it. */
    scheduleLoop: createPeriodicLoop({
      name: "digest schedule",
      run: sendDue,
      everyMs: SCHEDULE_POLL_MS,
      logger: deps.logger,
    }),
  };
}
