import { Hono } from "hono";
import { z } from "zod";
import { bookInput, emberInput, poemInput, tagInput } from "../../common/schemas/admin.ts";
import type { AppEnv } from "../http/env.ts";
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
 * The admin's content calls (SPEC.md §7) and the guest submissions' review, behind requireAdminApi: 201 on create, 200 on update,
 * 204 on delete; the schemas' messages on 400, 404 for unknown ids, 409 for taken slugs and names.
 */
export function adminContentRoutes(services: Services) {
  const { contentAdmin } = services;
  return new Hono<AppEnv>()
    .post("/admin/poems", async (c) =>
      c.json(await contentAdmin.createPoem(await readJsonBody(c, poemInput)), 201),
    )
    .put("/admin/poems/:id", async (c) => {
      const { id } = parseInput(poemId, c.req.param());
      return c.json(await contentAdmin.updatePoem(id, await readJsonBody(c, poemInput)));
    })
    .delete("/admin/poems/:id", async (c) => {
      await contentAdmin.deletePoem(parseInput(poemId, c.req.param()).id);
      return c.body(null, 204);
    })
    .get("/admin/embers", async (c) => {
      const { limit } = parseInput(scheduleQuery, c.req.query());
      return c.json(await contentAdmin.listEmberSchedule(limit));
    })
    .post("/admin/embers", async (c) =>
      c.json(await contentAdmin.createEmber(await readJsonBody(c, emberInput)), 201),
    )
    .put("/admin/embers/:id", async (c) => {
      const { id } = parseInput(emberId, c.req.param());
      return c.json(await contentAdmin.updateEmber(id, await readJsonBody(c, emberInput)));
    })
    .delete("/admin/embers/:id", async (c) => {
      await contentAdmin.deleteEmber(parseInput(emberId, c.req.param()).id);
      return c.body(null, 204);
    })
    .post("/admin/books", async (c) =>
      c.json(await contentAdmin.createBook(await readJsonBody(c, bookInput)), 201),
    )
    .put("/admin/books/:id", async (c) => {
      const { id } = parseInput(bookId, c.req.param());
      return c.json(await contentAdmin.updateBook(id, await readJsonBody(c, bookInput)));
    })
    .delete("/admin/books/:id", async (c) => {
      await contentAdmin.deleteBook(parseInput(bookId, c.req.param()).id);
      return c.body(null, 204);
    })
    .post("/admin/tags", async (c) =>
      c.json(await contentAdmin.createTag(await readJsonBody(c, tagInput)), 201),
    )
    .put("/admin/tags/:id", async (c) => {
      const { id } = parseInput(tagId, c.req.param());
      return c.json(await contentAdmin.updateTag(id, await readJsonBody(c, tagInput)));
    })
    .delete("/admin/tags/:id", async (c) => {
      await contentAdmin.deleteTag(parseInput(tagId, c.req.param()).id);
      return c.body(null, 204);
    })
    .get("/admin/whispers", async (c) => c.json(await contentAdmin.listWhispers()))
    .post("/admin/whispers/:id/approve", async (c) => {
      await contentAdmin.setWhisperApproval(parseInput(whisperId, c.req.param()).id, true);
      return c.json({ message: "Whisper approved" });
    })
    .post("/admin/whispers/:id/hide", async (c) => {
      await contentAdmin.setWhisperApproval(parseInput(whisperId, c.req.param()).id, false);
      return c.json({ message: "Whisper hidden" });
    })
    .get("/admin/submissions", async (c) =>
      c.json(await services.guestSubmissions.listSubmissions()),
    )
    .post("/admin/submissions/:id/review", async (c) => {
      await services.guestSubmissions.markReviewed(parseInput(submissionId, c.req.param()).id);
      return c.json({ message: "Submission marked reviewed" });
    })
    .delete("/admin/submissions/:id", async (c) => {
      await services.guestSubmissions.deleteSubmission(parseInput(submissionId, c.req.param()).id);
      return c.body(null, 204);
    });
}
