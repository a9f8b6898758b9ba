import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { Config } from "../config.ts";
import type { GuestSubmissionService } from "../guests/guest-submissions.ts";
import { sharedRead } from "../http/cache-policy.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { BookService } from "./books.ts";
import type { EmberService } from "./embers.ts";

/**
 * Public reads for embers and books, and the guest submission form. Each ember read answers
 * only the fields its schema names (docs/product/api.md).
 */
export function emberAndBookRoutes(
  {
    embers,
    books,
    guestSubmissions,
  }: { embers: EmberService; books: BookService; guestSubmissions: GuestSubmissionService },
  config: Config,
) {
  return routesAt<AppEnv>(mounts.api)
    .call(endpoints.getFeaturedEmber, sharedRead, () => embers.getFeaturedEmber())
    .call(endpoints.getTodaysEmber, sharedRead, () => embers.getTodaysEmber())
    .call(endpoints.listEmbers, sharedRead, ({ query }) =>
      embers.listEmbers(query.page, query.limit),
    )
    .call(endpoints.listBooks, sharedRead, () => books.listBooks())
    .call(endpoints.getBook, sharedRead, ({ params }) => books.getBook(params.slug))
    .call(endpoints.submitGuestPoem, async ({ body }, c) => {
      await guestSubmissions.submit(body, clientAddress(c, config.trustProxy));
      return { message: "Thank you. Submissions are reviewed monthly." };
    }).router;
}
