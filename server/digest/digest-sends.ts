import { and, count, eq, sql } from "drizzle-orm";
import * as pages from "../../common/pages.ts";
import type { DigestContent, DigestRun } from "../../common/schemas/digest.ts";
import type { EmberService } from "../content/embers.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, isUniqueViolation } from "../core/errors.ts";
import { digestDeliveries, mailRuns, subscriptions } from "../db/schema.ts";
import { activeSubscribers } from "../db/visibility.ts";
import { digestEmail } from "../mail/digest.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { listRuns, queueRun, runView } from "./digest-runs.ts";
import type { DigestSender } from "./digest-sender.ts";
import { weeklyContent } from "./weekly-content.ts";

/** The poet's own sends: this week's digest previewed, sent by hand, followed and resumed. */
export function digestSends(
  deps: ServiceDeps & { embers: EmberService; sender: DigestSender; mailSite: MailSiteSource },
) {
  const { db, config, sender, now } = deps;
  return {
    content: (_admin: AdminActor) => weeklyContent(deps, now()),

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
        runId = await queueRun(deps, {
          subject,
          content: await weeklyContent(deps, now()),
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
      return runView(deps, runId);
    },

    listRuns: (_admin: AdminActor) => listRuns(deps),

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
        await runView(deps, runId);
        throw conflict("Only a paused digest can be resumed");
      }
      await db
        .update(digestDeliveries)
        // Due at once by the clock the sender claims by: the database's (delivery-claims.ts).
        .set({ attempts: 0, nextAttemptAt: sql`now()` })
        .where(and(eq(digestDeliveries.runId, runId), eq(digestDeliveries.status, "pending")));
      sender.wake();
      return runView(deps, runId);
    },
  };
}
