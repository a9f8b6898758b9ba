import { type Context, Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { AVATAR_NOT_UPLOADED } from "../../common/schemas/account.ts";
import { answer } from "../http/answer.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import { invalid, unauthorized } from "../services/errors.ts";
import type { ImageService } from "../services/images.ts";
import type { Services } from "../services/index.ts";

/**
 * The signed-in reader's own account (/account): name and avatar, their data as JSON, signing
 * out everywhere and deleting the account. Every rule is in the reader-account service.
 */
export function accountRoutes(services: Services, images: ImageService) {
  const { accounts, readerAccounts } = services;

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

  return new Hono<AppEnv>()
    .get("/account", async (c) => {
      c.header("Cache-Control", "private, no-store");
      return answer(c, endpoints.getAccount, await readerAccounts.getAccount(c.get("actor")));
    })
    .put("/account", async (c) => {
      const input = await readJsonBody(c, endpoints.updateAccount.body);
      if (input.avatarUrl && !(await images.isStoredImage(input.avatarUrl))) {
        throw invalid(AVATAR_NOT_UPLOADED, { avatarUrl: [AVATAR_NOT_UPLOADED] });
      }
      return answer(
        c,
        endpoints.updateAccount,
        await readerAccounts.updateAccount(c.get("actor"), input),
      );
    })
    .get("/account/export", async (c) => {
      const data = await readerAccounts.exportAccount(c.get("actor"));
      c.header("Cache-Control", "private, no-store");
      c.header("Content-Disposition", 'attachment; filename="my-account.json"');
      return answer(c, endpoints.exportAccount, data);
    })
    .delete("/account", async (c) => {
      await readerAccounts.deleteAccount(c.get("actor"));
      await clearSessionCookie(c);
      return answer(c, endpoints.deleteAccount, undefined);
    })
    .post("/account/sign-out-everywhere", async (c) => {
      await readJsonBody(c, endpoints.signOutEverywhere.body);
      await readerAccounts.signOutEverywhere(c.get("actor"));
      await clearSessionCookie(c);
      return answer(c, endpoints.signOutEverywhere, {
        message: "Signed out on every device",
      });
    })
    .post("/account/avatar/upload-url", async (c) => {
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
    });
}
