import { Hono } from "hono";
import { z } from "zod";
import { digestContentInput, digestSendInput } from "../../common/schemas/digest.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import { unauthorized } from "../services/errors.ts";
import type { Services } from "../services/index.ts";

const runParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "Digest run not found")
    .transform(Number),
});

/** The weekly digest for admins (behind requireAdminApi): content, preview, sending, runs. */
export function digestRoutes(services: Services) {
  const { digest } = services;
  return new Hono<AppEnv>()
    .get("/admin/digest/content", async (c) => c.json(await digest.content()))
    .post("/admin/digest/preview", async (c) =>
      c.json(digest.preview(await readJsonBody(c, digestContentInput))),
    )
    .post("/admin/digest/send", async (c) => {
      const actor = c.get("actor");
      if (!actor) throw unauthorized();
      const { subject } = await readJsonBody(c, digestSendInput);
      return c.json(await digest.send(actor, subject), 201);
    })
    .get("/admin/digest/runs", async (c) => c.json(await digest.listRuns()))
    .get("/admin/digest/recipients", async (c) =>
      c.json({ recipients: await digest.countRecipients() }),
    )
    .post("/admin/digest/runs/:id/resume", async (c) => {
      const { id } = parseInput(runParams, c.req.param());
      return c.json(await digest.resume(id));
    });
}
