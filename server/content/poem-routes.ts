import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import { sharedRead } from "../http/cache-policy.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { PoemService } from "./poems.ts";

/** Public reads: the poems, one poem, the tags, one theme. */
export function poemRoutes({ poems }: { poems: PoemService }) {
  return routesAt<AppEnv>(mounts.api)
    .call(endpoints.listPoems, sharedRead, ({ query }) => poems.listPoems(query))
    .call(endpoints.getPoem, sharedRead, ({ params }, c) =>
      poems.getPoem(c.get("audience"), params.slug),
    )
    .call(endpoints.listTags, sharedRead, () => poems.listTags())
    .call(endpoints.getTheme, sharedRead, ({ params }) => poems.getTheme(params.slug)).router;
}
