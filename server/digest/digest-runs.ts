import { count, desc, eq, inArray, sql } from "drizzle-orm";
import type { DigestContent, DigestRun } from "../../common/schemas/digest.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { notFound } from "../core/errors.ts";
import { digestDeliveries, mailRuns, subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";
import { SAMPLE_DIGEST_CONTENT } from "./weekly-content.ts";

/**
 * The digest's runs as rows (mail_runs, with a digest_deliveries row per recipient): written,
 * and read back with their deliveries counted. The poet's sends and the schedule share them.
 */

const RUNS_LISTED = 20;

export async function runView(deps: ServiceDeps, runId: number): Promise<DigestRun> {
  const [run] = await listRuns(deps, [runId]);
  if (!run) throw notFound("Digest run not found");
  return run;
}

export async function listRuns(deps: ServiceDeps, ids?: number[]): Promise<DigestRun[]> {
  const { db } = deps;
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
 * Writes a run and one delivery for every active subscriber, in one transaction. A scheduled
 * run that another instance (or an earlier poll) already wrote for the same instant is not
 * written again: undefined.
 */
export async function queueRun(
  deps: ServiceDeps,
  values: {
    subject: string;
    content: DigestContent;
    createdBy?: string;
    scheduledFor?: Date;
  },
): Promise<number | undefined> {
  const { db, now } = deps;
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
export async function recordSkippedWeek(
  deps: ServiceDeps,
  scheduledFor: Date,
  subject: string,
  skipReason: string,
) {
  await deps.db
    .insert(mailRuns)
    .values({
      subject,
      content: SAMPLE_DIGEST_CONTENT,
      status: "skipped",
      skipReason,
      scheduledFor,
      completedAt: deps.now(),
    })
    .onConflictDoNothing({ target: mailRuns.scheduledFor });
}
