import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { Services } from "../services.ts";

/** The admin's fediverse page's calls (docs/product/fediverse.md), on the admin router. */
export function fediverseAdminRoutes(services: Services) {
  const { fediverseAdmin } = services;
  return routesAt<AdminEnv>(mounts.admin)
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
