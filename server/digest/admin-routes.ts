import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { DigestService } from "./digest.ts";
import type { SubscriptionService } from "./subscriptions.ts";

/**
 * The weekly digest on the admin router (server/admin-router.ts): content, preview, sending, runs,
 * and the verified subscribers as CSV.
 */
export function digestRoutes({
  digest,
  subscriptions,
}: {
  digest: DigestService;
  subscriptions: SubscriptionService;
}) {
  return routesAt<AdminEnv>(mounts.admin)
    .call(endpoints.getDigestContent, (_input, c) => digest.content(c.var.admin))
    .call(endpoints.previewDigest, ({ body }, c) => digest.preview(c.var.admin, body))
    .call(endpoints.sendDigest, ({ body }, c) => digest.send(c.var.admin, body.subject))
    .call(endpoints.listDigestRuns, (_input, c) => digest.listRuns(c.var.admin))
    .call(endpoints.getDigestSchedule, (_input, c) => digest.getSchedule(c.var.admin))
    .call(endpoints.setDigestSchedule, ({ body }, c) => digest.setSchedule(c.var.admin, body))
    .call(endpoints.countDigestRecipients, async (_input, c) => ({
      recipients: await digest.countRecipients(c.var.admin),
    }))
    .call(endpoints.resumeDigestRun, ({ params }, c) => digest.resume(c.var.admin, params.id))
    .route(otherRoutes.subscribersCsv, async (c) => {
      const csv = await subscriptions.exportCsv(c.var.admin);
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="subscribers.csv"',
        "Cache-Control": "no-store",
      });
    }).router;
}
