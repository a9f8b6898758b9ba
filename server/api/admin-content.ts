import { Hono } from "hono";
import { z } from "zod";
import { bookInput, emberInput, poemInput, tagInput } from "../../common/schemas/admin.ts";
import type { AdminEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const idParam = (entity: string) =>
  z.object({
    id: z
      .string()
      .regex(/^\d{1,9}$/, `${entity} not found`)
      .transform(Number),
  });
const poemId = idParam("Poem");
const poemVersionParams = poemId.extend({
  versionId: z
    .string()
    .regex(/^\d{1,9}$/, "Version not found")
    .transform(Number),
});
const emberId = idParam("Ember");
const bookId = idParam("Book");
const tagId = idParam("Tag");
const whisperId = idParam("Whisper");
const submissionId = idParam("Submission");
const scheduleQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,3}$/, "limit must be a positive integer")
    .transform(Number)
    .optional(),
});

/**
 * The admin's content calls (SPEC.md §7) and the guest submissions' review, on the admin router
 * (server/api/admin.ts): 201 on create and 200 on update with the record, 204 on delete; the
 * schemas' messages on 400, 404 for unknown ids, 409 for taken slugs and names.
 */
export function adminContentRoutes(services: Services) {
  const { contentAdmin } = services;
  return new Hono<AdminEnv>()
    .get("/poems", async (c) => c.json(await contentAdmin.listPoems(c.var.admin)))
    .post("/poems", async (c) =>
      c.json(await contentAdmin.createPoem(c.var.admin, await readJsonBody(c, poemInput)), 201),
    )
    .put("/poems/:id", async (c) => {
      const { id } = parseInput(poemId, c.req.param());
      return c.json(
        await contentAdmin.updatePoem(c.var.admin, id, await readJsonBody(c, poemInput)),
      );
    })
    .get("/poems/:id/versions", async (c) => {
      const { id } = parseInput(poemId, c.req.param());
      return c.json(await contentAdmin.listPoemVersions(c.var.admin, id));
    })
    .post("/poems/:id/versions/:versionId/restore", async (c) => {
      const { id, versionId } = parseInput(poemVersionParams, c.req.param());
      return c.json(await contentAdmin.restorePoemVersion(c.var.admin, id, versionId));
    })
    .delete("/poems/:id", async (c) => {
      await contentAdmin.deletePoem(c.var.admin, parseInput(poemId, c.req.param()).id);
      return c.body(null, 204);
    })
    .get("/embers", async (c) => {
      const { limit } = parseInput(scheduleQuery, c.req.query());
      return c.json(await contentAdmin.listEmberSchedule(c.var.admin, limit));
    })
    .post("/embers", async (c) =>
      c.json(await contentAdmin.createEmber(c.var.admin, await readJsonBody(c, emberInput)), 201),
    )
    .put("/embers/:id", async (c) => {
      const { id } = parseInput(emberId, c.req.param());
      return c.json(
        await contentAdmin.updateEmber(c.var.admin, id, await readJsonBody(c, emberInput)),
      );
    })
    .delete("/embers/:id", async (c) => {
      await contentAdmin.deleteEmber(c.var.admin, parseInput(emberId, c.req.param()).id);
      return c.body(null, 204);
    })
    .post("/books", async (c) =>
      c.json(await contentAdmin.createBook(c.var.admin, await readJsonBody(c, bookInput)), 201),
    )
    .put("/books/:id", async (c) => {
      const { id } = parseInput(bookId, c.req.param());
      return c.json(
        await contentAdmin.updateBook(c.var.admin, id, await readJsonBody(c, bookInput)),
      );
    })
    .delete("/books/:id", async (c) => {
      await contentAdmin.deleteBook(c.var.admin, parseInput(bookId, c.req.param()).id);
      return c.body(null, 204);
    })
    .post("/tags", async (c) =>
      c.json(await contentAdmin.createTag(c.var.admin, await readJsonBody(c, tagInput)), 201),
    )
    .put("/tags/:id", async (c) => {
      const { id } = parseInput(tagId, c.req.param());
      return c.json(await contentAdmin.updateTag(c.var.admin, id, await readJsonBody(c, tagInput)));
    })
    .delete("/tags/:id", async (c) => {
      await contentAdmin.deleteTag(c.var.admin, parseInput(tagId, c.req.param()).id);
      return c.body(null, 204);
    })
    .get("/whispers", async (c) => c.json(await contentAdmin.listWhispers(c.var.admin)))
    .post("/whispers/:id/approve", async (c) => {
      await contentAdmin.setWhisperApproval(
        c.var.admin,
        parseInput(whisperId, c.req.param()).id,
        true,
      );
      return c.json({ message: "Whisper approved" });
    })
    .post("/whispers/:id/hide", async (c) => {
      await contentAdmin.setWhisperApproval(
        c.var.admin,
        parseInput(whisperId, c.req.param()).id,
        false,
      );
      return c.json({ message: "Whisper hidden" });
    })
    .get("/submissions", async (c) =>
      c.json(await services.guestSubmissions.listSubmissions(c.var.admin)),
    )
    .post("/submissions/:id/review", async (c) => {
      await services.guestSubmissions.markReviewed(
        c.var.admin,
        parseInput(submissionId, c.req.param()).id,
      );
      return c.json({ message: "Submission marked reviewed" });
    })
    .delete("/submissions/:id", async (c) => {
      await services.guestSubmissions.deleteSubmission(
        c.var.admin,
        parseInput(submissionId, c.req.param()).id,
      );
      return c.body(null, 204);
    });
}
