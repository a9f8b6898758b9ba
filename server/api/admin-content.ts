import { Hono } from "hono";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv } from "../http/env.ts";
import { idInText, parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const idParam = (entity: string) => z.object({ id: idInText(`${entity} not found`) });
const poemId = idParam("Poem");
const poemVersionParams = z.extend(poemId, { versionId: idInText("Version not found") });
const emberId = idParam("Ember");
const bookId = idParam("Book");
const tagId = idParam("Tag");
const whisperId = idParam("Whisper");
const submissionId = idParam("Submission");

/**
 * The admin's content calls (SPEC.md §7) and the guest submissions' review, on the admin router
 * (server/api/admin.ts): 201 on create and 200 on update with the record, 204 on delete; the
 * schemas' messages on 400, 404 for unknown ids, 409 for taken slugs and names.
 */
export function adminContentRoutes(services: Services) {
  const { contentAdmin, recentlyDeleted } = services;
  return new Hono<AdminEnv>()
    .get("/poems", async (c) =>
      answer(c, endpoints.listAdminPoems, await contentAdmin.listPoems(c.var.admin)),
    )
    .post("/poems", async (c) => {
      const input = await readJsonBody(c, endpoints.createPoem.body);
      return answer(c, endpoints.createPoem, await contentAdmin.createPoem(c.var.admin, input));
    })
    .put("/poems/:id", async (c) => {
      const { id } = parseInput(poemId, c.req.param());
      const input = await readJsonBody(c, endpoints.updatePoem.body);
      return answer(c, endpoints.updatePoem, await contentAdmin.updatePoem(c.var.admin, id, input));
    })
    .get("/poems/:id/versions", async (c) => {
      const { id } = parseInput(poemId, c.req.param());
      return answer(
        c,
        endpoints.listPoemVersions,
        await contentAdmin.listPoemVersions(c.var.admin, id),
      );
    })
    .post("/poems/:id/versions/:versionId/restore", async (c) => {
      const { id, versionId } = parseInput(poemVersionParams, c.req.param());
      return answer(
        c,
        endpoints.restorePoemVersion,
        await contentAdmin.restorePoemVersion(c.var.admin, id, versionId),
      );
    })
    .delete("/poems/:id", async (c) => {
      await recentlyDeleted.deletePoem(c.var.admin, parseInput(poemId, c.req.param()).id);
      return answer(c, endpoints.deletePoem, undefined);
    })
    .get("/poems/deleted", async (c) =>
      answer(c, endpoints.listDeletedPoems, await recentlyDeleted.listDeletedPoems(c.var.admin)),
    )
    .post("/poems/:id/restore", async (c) => {
      const { id } = parseInput(poemId, c.req.param());
      return answer(c, endpoints.restorePoem, await recentlyDeleted.restorePoem(c.var.admin, id));
    })
    .get("/embers", async (c) => {
      const { limit } = parseInput(endpoints.listEmberSchedule.query, c.req.query());
      return answer(
        c,
        endpoints.listEmberSchedule,
        await contentAdmin.listEmberSchedule(c.var.admin, limit),
      );
    })
    .post("/embers", async (c) => {
      const input = await readJsonBody(c, endpoints.createEmber.body);
      return answer(c, endpoints.createEmber, await contentAdmin.createEmber(c.var.admin, input));
    })
    .put("/embers/:id", async (c) => {
      const { id } = parseInput(emberId, c.req.param());
      const input = await readJsonBody(c, endpoints.updateEmber.body);
      return answer(
        c,
        endpoints.updateEmber,
        await contentAdmin.updateEmber(c.var.admin, id, input),
      );
    })
    .delete("/embers/:id", async (c) => {
      await contentAdmin.deleteEmber(c.var.admin, parseInput(emberId, c.req.param()).id);
      return answer(c, endpoints.deleteEmber, undefined);
    })
    .post("/books", async (c) => {
      const input = await readJsonBody(c, endpoints.createBook.body);
      return answer(c, endpoints.createBook, await contentAdmin.createBook(c.var.admin, input));
    })
    .put("/books/:id", async (c) => {
      const { id } = parseInput(bookId, c.req.param());
      const input = await readJsonBody(c, endpoints.updateBook.body);
      return answer(c, endpoints.updateBook, await contentAdmin.updateBook(c.var.admin, id, input));
    })
    .delete("/books/:id", async (c) => {
      await recentlyDeleted.deleteBook(c.var.admin, parseInput(bookId, c.req.param()).id);
      return answer(c, endpoints.deleteBook, undefined);
    })
    .get("/books/deleted", async (c) =>
      answer(c, endpoints.listDeletedBooks, await recentlyDeleted.listDeletedBooks(c.var.admin)),
    )
    .post("/books/:id/restore", async (c) => {
      const { id } = parseInput(bookId, c.req.param());
      return answer(c, endpoints.restoreBook, await recentlyDeleted.restoreBook(c.var.admin, id));
    })
    .post("/tags", async (c) => {
      const input = await readJsonBody(c, endpoints.createTag.body);
      return answer(c, endpoints.createTag, await contentAdmin.createTag(c.var.admin, input));
    })
    .put("/tags/:id", async (c) => {
      const { id } = parseInput(tagId, c.req.param());
      const input = await readJsonBody(c, endpoints.updateTag.body);
      return answer(c, endpoints.updateTag, await contentAdmin.updateTag(c.var.admin, id, input));
    })
    .delete("/tags/:id", async (c) => {
      await contentAdmin.deleteTag(c.var.admin, parseInput(tagId, c.req.param()).id);
      return answer(c, endpoints.deleteTag, undefined);
    })
    .get("/whispers", async (c) =>
      answer(c, endpoints.listModeratedWhispers, await contentAdmin.listWhispers(c.var.admin)),
    )
    .post("/whispers/:id/approve", async (c) => {
      const { id } = parseInput(whisperId, c.req.param());
      await contentAdmin.setWhisperApproval(c.var.admin, id, true);
      return answer(c, endpoints.approveWhisper, { message: "Whisper approved" });
    })
    .post("/whispers/:id/hide", async (c) => {
      const { id } = parseInput(whisperId, c.req.param());
      await contentAdmin.setWhisperApproval(c.var.admin, id, false);
      return answer(c, endpoints.hideWhisper, { message: "Whisper hidden" });
    })
    .get("/submissions", async (c) =>
      answer(
        c,
        endpoints.listGuestSubmissions,
        await services.guestSubmissions.listSubmissions(c.var.admin),
      ),
    )
    .post("/submissions/:id/review", async (c) => {
      const { id } = parseInput(submissionId, c.req.param());
      await services.guestSubmissions.markReviewed(c.var.admin, id);
      return answer(c, endpoints.markSubmissionReviewed, {
        message: "Submission marked reviewed",
      });
    })
    .delete("/submissions/:id", async (c) => {
      const { id } = parseInput(submissionId, c.req.param());
      await services.guestSubmissions.deleteSubmission(c.var.admin, id);
      return answer(c, endpoints.deleteGuestSubmission, undefined);
    });
}
