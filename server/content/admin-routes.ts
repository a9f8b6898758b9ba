import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { GuestSubmissionService } from "../guests/guest-submissions.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { ContentAdminService } from "./content-admin.ts";
import type { RecentlyDeletedService } from "./recently-deleted.ts";

/**
 * The admin's content calls (docs/product/api.md) and the guest submissions' review, on the
 * admin router (server/admin-router.ts): 201 on create and 200 on update with the record, 204 on
 * delete; the schemas' messages on 400, 404 for unknown ids, 409 for taken slugs and names.
 */
export function adminContentRoutes({
  contentAdmin,
  guestSubmissions,
  recentlyDeleted,
}: {
  contentAdmin: ContentAdminService;
  guestSubmissions: GuestSubmissionService;
  recentlyDeleted: RecentlyDeletedService;
}) {
  return (
    routesAt<AdminEnv>(mounts.admin)
      .call(endpoints.listAdminPoems, (_input, c) => contentAdmin.listPoems(c.var.admin))
      .call(endpoints.createPoem, ({ body }, c) => contentAdmin.createPoem(c.var.admin, body))
      .call(endpoints.updatePoem, ({ params, body }, c) =>
        contentAdmin.updatePoem(c.var.admin, params.id, body),
      )
      .call(endpoints.listPoemVersions, ({ params }, c) =>
        contentAdmin.listPoemVersions(c.var.admin, params.id),
      )
      .call(endpoints.restorePoemVersion, ({ params }, c) =>
        contentAdmin.restorePoemVersion(c.var.admin, params.id, params.versionId),
      )
      .call(endpoints.deletePoem, async ({ params }, c) => {
        await recentlyDeleted.deletePoem(c.var.admin, params.id);
      })
      .call(endpoints.listDeletedPoems, (_input, c) =>
        recentlyDeleted.listDeletedPoems(c.var.admin),
      )
      // After Recently deleted: routes match in the order they are registered, and `deleted` is no id.
      .call(endpoints.getAdminPoem, ({ params }, c) => contentAdmin.getPoem(c.var.admin, params.id))
      .call(endpoints.restorePoem, ({ params }, c) =>
        recentlyDeleted.restorePoem(c.var.admin, params.id),
      )
      .call(endpoints.listEmberSchedule, ({ query }, c) =>
        contentAdmin.listEmberSchedule(c.var.admin, query.limit),
      )
      .call(endpoints.createEmber, ({ body }, c) => contentAdmin.createEmber(c.var.admin, body))
      .call(endpoints.updateEmber, ({ params, body }, c) =>
        contentAdmin.updateEmber(c.var.admin, params.id, body),
      )
      .call(endpoints.deleteEmber, async ({ params }, c) => {
        await contentAdmin.deleteEmber(c.var.admin, params.id);
      })
      .call(endpoints.createBook, ({ body }, c) => contentAdmin.createBook(c.var.admin, body))
      .call(endpoints.updateBook, ({ params, body }, c) =>
        contentAdmin.updateBook(c.var.admin, params.id, body),
      )
      .call(endpoints.deleteBook, async ({ params }, c) => {
        await recentlyDeleted.deleteBook(c.var.admin, params.id);
      })
      .call(endpoints.listDeletedBooks, (_input, c) =>
        recentlyDeleted.listDeletedBooks(c.var.admin),
      )
      .call(endpoints.restoreBook, ({ params }, c) =>
        recentlyDeleted.restoreBook(c.var.admin, params.id),
      )
      .call(endpoints.createTag, ({ body }, c) => contentAdmin.createTag(c.var.admin, body))
      .call(endpoints.updateTag, ({ params, body }, c) =>
        contentAdmin.updateTag(c.var.admin, params.id, body),
      )
      .call(endpoints.deleteTag, async ({ params }, c) => {
        await contentAdmin.deleteTag(c.var.admin, params.id);
      })
      .call(endpoints.listModeratedWhispers, (_input, c) => contentAdmin.listWhispers(c.var.admin))
      .call(endpoints.approveWhisper, async ({ params }, c) => {
        await contentAdmin.setWhisperApproval(c.var.admin, params.id, true);
        return { message: "Whisper approved" };
      })
      .call(endpoints.hideWhisper, async ({ params }, c) => {
        await contentAdmin.setWhisperApproval(c.var.admin, params.id, false);
        return { message: "Whisper hidden" };
      })
      .call(endpoints.moveWhisper, async ({ params, body }, c) => {
        await contentAdmin.moveWhisper(c.var.admin, params.id, body.stanzaIndex);
        return { message: `Whisper moved to stanza ${body.stanzaIndex + 1}` };
      })
      .call(endpoints.listGuestSubmissions, (_input, c) =>
        guestSubmissions.listSubmissions(c.var.admin),
      )
      .call(endpoints.markSubmissionReviewed, async ({ params }, c) => {
        await guestSubmissions.markReviewed(c.var.admin, params.id);
        return { message: "Submission marked reviewed" };
      })
      .call(endpoints.deleteGuestSubmission, async ({ params }, c) => {
        await guestSubmissions.deleteSubmission(c.var.admin, params.id);
      }).router
  );
}
