import type { Context } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import { AVATAR_NOT_UPLOADED } from "../../common/schemas/account.ts";
import { invalid, unauthorized } from "../core/errors.ts";
import { answer } from "../http/answer.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import { routesAt } from "../http/routes.ts";
import type { ImageService } from "../media/images.ts";
import type { AccountService } from "./accounts.ts";
import type { ReaderAccountService } from "./reader-accounts.ts";

/**
 * The signed-in reader's own account (/account): name and avatar, their data as JSON, signing
 * out everywhere and deleting the account. Every rule is in the reader-account service.
 */
export function accountRoutes({
  accounts,
  readerAccounts,
  images,
}: {
  accounts: AccountService;
  readerAccounts: ReaderAccountService;
  images: ImageService;
}) {
  /** Ends this browser's session as /api/logout does, so its cookie is cleared with the answer. */
  async function clearSessionCookie(c: Context<AppEnv>) {
    const response = await accounts.auth.api.signOut({
      headers: c.req.raw.headers,
      asResponse: true,
    });
    accounts.forgetSession(c.req.header("cookie") ?? "");
    for (const cookie of response.headers.getSetCookie())
      c.header("Set-Cookie", cookie, { append: true });
    c.header("Cache-Control", "no-store");
  }

  return routesAt<AppEnv>(mounts.api)
    .call(endpoints.getAccount, (_input, c) => {
      c.header("Cache-Control", "private, no-store");
      return readerAccounts.getAccount(c.get("actor"));
    })
    .call(endpoints.updateAccount, async ({ body }, c) => {
      if (body.avatarUrl && !(await images.isStoredImage(body.avatarUrl))) {
        throw invalid(AVATAR_NOT_UPLOADED, { avatarUrl: [AVATAR_NOT_UPLOADED] });
      }
      return readerAccounts.updateAccount(c.get("actor"), body);
    })
    .call(endpoints.exportAccount, async (_input, c) => {
      const data = await readerAccounts.exportAccount(c.get("actor"));
      c.header("Cache-Control", "private, no-store");
      c.header("Content-Disposition", 'attachment; filename="my-account.json"');
      return data;
    })
    .call(endpoints.deleteAccount, async (_input, c) => {
      const { unusedAvatar } = await readerAccounts.deleteAccount(c.get("actor"));
      // Readers could still load the file by its address: it goes with the account.
      if (unusedAvatar) await images.removeImage(unusedAvatar);
      await clearSessionCookie(c);
    })
    .call(endpoints.signOutEverywhere, async (_input, c) => {
      await readerAccounts.signOutEverywhere(c.get("actor"));
      await clearSessionCookie(c);
      return { message: "Signed out on every device" };
    })
    .route(endpoints.createAvatarUploadUrl, async (c) => {
      const actor = c.get("actor");
      if (!actor) throw unauthorized();
      // As for the admin's covers, the body may be left out or name the file's type.
      const hasBody = (await c.req.text()).trim() !== "";
      const { contentType } = hasBody
        ? await readJsonBody(c, endpoints.createAvatarUploadUrl.body)
        : parseInput(endpoints.createAvatarUploadUrl.body, {});
      return answer(
        c,
        endpoints.createAvatarUploadUrl,
        await images.createAvatarUploadUrl(actor, contentType),
      );
    }).router;
}
