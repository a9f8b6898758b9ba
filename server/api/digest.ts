import { Hono } from "hono";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { idInText } from "../../common/schemas/input.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const runParams = z.object({ id: idInText("Digest run not found") });

/**
 * The weekly digest on the admin router (server/api/admin.ts): content, preview, sending, runs,
 * and the verified subscribers as CSV.
 */
export function digestRoutes(services: Services) {
  const { digest, subscriptions } = services;
  return new Hono<AdminEnv>()
    .get("/digest/content", async (c) =>
      answer(c, endpoints.getDigestContent, await digest.content(c.var.admin)),
    )
    .post("/digest/preview", async (c) => {
      const content = await readJsonBody(c, endpoints.previewDigest.body);
      return answer(c, endpoints.previewDigest, digest.preview(c.var.admin, content));
    })
    .post("/digest/send", async (c) => {
      const { subject } = await readJsonBody(c, endpoints.sendDigest.body);
      return answer(c, endpoints.sendDigest, await digest.send(c.var.admin, subject));
    })
    .get("/digest/runs", async (c) =>
      answer(c, endpoints.listDigestRuns, await digest.listRuns(c.var.admin)),
    )
    .get("/digest/schedule", async (c) =>
      answer(c, endpoints.getDigestSchedule, await digest.getSchedule(c.var.admin)),
    )
    .put("/digest/schedule", async (c) => {
      const input = await readJsonBody(c, endpoints.setDigestSchedule.body);
      return answer(c, endpoints.setDigestSchedule, await digest.setSchedule(c.var.admin, input));
    })
    .get("/digest/recipients", async (c) =>
      answer(c, endpoints.countDigestRecipients, {
        recipients: await digest.countRecipients(c.var.admin),
      }),
    )
    .post("/digest/runs/:id/resume", async (c) => {
      const { id } = parseInput(runParams, c.req.param());
      return answer(c, endpoints.resumeDigestRun, await digest.resume(c.var.admin, id));
    })
    .get("/subscribers.csv", async (c) => {
      const csv = await subscriptions.exportCsv(c.var.admin);
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="subscribers.csv"',
        "Cache-Control": "no-store",
      });
    });
}
