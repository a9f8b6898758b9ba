import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { FediverseAdminService } from "./admin.ts";
import type { FediverseReactionService } from "./reactions.ts";

/**
 * The admin's fediverse calls (docs/product/fediverse.md), on the admin router: the fediverse
 * page's followers and blocks, and the replies that came from the fediverse, which the Poems tab
 * lists beside each poem.
 */
export function fediverseAdminRoutes({
  fediverseAdmin,
  fediverseReactions,
}: {
  fediverseAdmin: FediverseAdminService;
  fediverseReactions: FediverseReactionService;
}) {
  return routesAt<AdminEnv>(mounts.admin)
    .call(endpoints.listFediverseReactions, (_input, c) =>
      fediverseReactions.reactions(c.var.admin),
    )
    .call(endpoints.listFediverseFollowers, ({ query }, c) =>
      fediverseAdmin.followers(c.var.admin, query.offset ?? 0),
    )
    .call(endpoints.listFediverseBlocks, (_input, c) => fediverseAdmin.blocks(c.var.admin))
    .call(endpoints.addFediverseBlock, ({ body }, c) =>
      fediverseAdmin.block(c.var.admin, body.target),
    )
    .call(endpoints.removeFediverseBlock, ({ params }, c) =>
      fediverseAdmin.unblock(c.var.admin, params.id),
    ).router;
}
