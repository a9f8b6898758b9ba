import { Hono } from "hono";
import { z } from "zod";
import { EMBERS_MAX_LIMIT, EMBERS_PAGE_SIZE } from "../../common/constants.ts";
import { guestSubmissionInput } from "../../common/schemas/guest-submission.ts";
import type { Config } from "../config.ts";
import { sharedRead } from "../http/cache-policy.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

/** Nine digits at most: a larger page would overflow the database's row offset. */
const positiveInteger = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a positive integer`)
    .transform(Number)
    .refine((value) => value >= 1, `${name} must be a positive integer`);

const emberPageQuery = z.object({
  page: positiveInteger("page").default(1),
  limit: positiveInteger("limit")
    .default(EMBERS_PAGE_SIZE)
    .transform((limit) => Math.min(limit, EMBERS_MAX_LIMIT)),
});

/** Public reads for embers and books, and the guest submission form. */
export function emberAndBookRoutes(services: Services, config: Config) {
  return new Hono<AppEnv>()
    .get("/embers/featured", sharedRead, async (c) => {
      const { text, date, featuredAt } = await services.embers.getFeaturedEmber();
      return c.json({ text, date, featuredAt });
    })
    .get("/ember/today", sharedRead, async (c) => {
      const { text, date } = await services.embers.getTodaysEmber();
      return c.json({ text, date });
    })
    .get("/embers", sharedRead, async (c) => {
      const { page, limit } = parseInput(emberPageQuery, c.req.query());
      const embers = await services.embers.listEmbers(page, limit);
      return c.json(embers.map(({ id, text, date }) => ({ id, text, date })));
    })
    .get("/books", sharedRead, async (c) => c.json(await services.books.listBooks()))
    .get("/books/:slug", sharedRead, async (c) =>
      c.json(await services.books.getBook(c.req.param("slug"))),
    )
    .post("/guest-submission", async (c) => {
      const input = await readJsonBody(c, guestSubmissionInput);
      await services.guestSubmissions.submit(input, clientAddress(c, config.trustProxy));
      return c.json({ message: "Thank you. Submissions are reviewed monthly." }, 201);
    });
}
