import { Hono } from "hono";
import { z } from "zod";
import {
  digestContentInput,
  digestScheduleInput,
  digestSendInput,
} from "../../common/schemas/digest.ts";
import type { AdminEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const runParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "Digest run not found")
    .transform(Number),
});

/**
 * The weekly digest on the admin router (server/api/admin.ts): content, preview, sending, runs,
 * and the verified subscribers as CSV.
 */
export function digestRoutes(services: Services) {
  const { digest, subscriptions } = services;
  return new Hono<AdminEnv>()
    .get("/digest/content", async (c) => c.json(await digest.content(c.var.admin)))
    .post("/digest/preview", async (c) =>
      c.json(digest.preview(c.var.admin, await readJsonBody(c, digestContentInput))),
    )
    .post("/digest/send", async (c) => {
      const { subject } = await readJsonBody(c, digestSendInput);
      return c.json(await digest.send(c.var.admin, subject), 201);
    })
    .get("/digest/runs", async (c) => c.json(await digest.listRuns(c.var.admin)))
    .get("/digest/schedule", async (c) => c.json(await digest.getSchedule(c.var.admin)))
    .put("/digest/schedule", async (c) =>
      c.json(await digest.setSchedule(c.var.admin, await readJsonBody(c, digestScheduleInput))),
    )
    .get("/digest/recipients", async (c) =>
      c.json({ recipients: await digest.countRecipients(c.var.admin) }),
    )
    .post("/digest/runs/:id/resume", async (c) => {
      const { id } = parseInput(runParams, c.req.param());
      return c.json(await digest.resume(c.var.admin, id));
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
