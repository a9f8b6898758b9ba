import { Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import type { Config } from "../config.ts";
import { answer } from "../http/answer.ts";
import { sharedRead } from "../http/cache-policy.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

/**
 * Public reads for embers and books, and the guest submission form. Each ember read answers
 * only the fields its schema names (SPEC.md §7).
 */
export function emberAndBookRoutes(services: Services, config: Config) {
  return new Hono<AppEnv>()
    .get("/embers/featured", sharedRead, async (c) =>
      answer(c, endpoints.getFeaturedEmber, await services.embers.getFeaturedEmber()),
    )
    .get("/ember/today", sharedRead, async (c) =>
      answer(c, endpoints.getTodaysEmber, await services.embers.getTodaysEmber()),
    )
    .get("/embers", sharedRead, async (c) => {
      const { page, limit } = parseInput(endpoints.listEmbers.query, c.req.query());
      return answer(c, endpoints.listEmbers, await services.embers.listEmbers(page, limit));
    })
    .get("/books", sharedRead, async (c) =>
      answer(c, endpoints.listBooks, await services.books.listBooks()),
    )
    .get("/books/:slug", sharedRead, async (c) =>
      answer(c, endpoints.getBook, await services.books.getBook(c.req.param("slug"))),
    )
    .post("/guest-submission", async (c) => {
      const input = await readJsonBody(c, endpoints.submitGuestPoem.body);
      await services.guestSubmissions.submit(input, clientAddress(c, config.trustProxy));
      return answer(c, endpoints.submitGuestPoem, {
        message: "Thank you. Submissions are reviewed monthly.",
      });
    });
}
