import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { ReaderAccountService } from "./reader-accounts.ts";

/** The poet blocks and unblocks readers (decision 041), on the admin router. */
export function adminReaderRoutes({ readerAccounts }: { readerAccounts: ReaderAccountService }) {
  return routesAt<AdminEnv>(mounts.admin)
    .call(endpoints.blockReader, async ({ params }, c) => {
      await readerAccounts.blockReader(c.var.admin, params.userId);
      return { message: "Reader blocked" };
    })
    .call(endpoints.unblockReader, async ({ params }, c) => {
      await readerAccounts.unblockReader(c.var.admin, params.userId);
      return { message: "Reader unblocked" };
    }).router;
}
