import { Hono } from "hono";
import { z } from "zod";
import { POEMS_MAX_LIMIT } from "../../common/constants.ts";
import { sharedRead } from "../http/cache-policy.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const count = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((value) => value <= max, `${name} must be at most ${max}`);

/** The spec's optional tag; beyond it, `limit` and `offset` page through a large collection. */
const poemListQuery = z.object({
  tag: z.string().max(200).optional(),
  limit: count("limit", POEMS_MAX_LIMIT)
    .refine((value) => value >= 1, "limit must be at least 1")
    .optional(),
  offset: count("offset", 1_000_000).optional(),
});
const slugParam = z.string().min(1).max(200);

/** Public reads: GET /api/poems, /api/poems/{slug}, /api/tags, /api/themes/{slug}. */
export function poemRoutes(services: Services) {
  const { poems } = services;
  return new Hono<AppEnv>()
    .get("/poems", sharedRead, async (c) => {
      const query = parseInput(poemListQuery, c.req.query());
      return c.json(await poems.listPoems(query));
    })
    .get("/poems/:slug", sharedRead, async (c) =>
      c.json(await poems.getPoem(c.get("actor"), parseInput(slugParam, c.req.param("slug")))),
    )
    .get("/tags", sharedRead, async (c) => c.json(await poems.listTags()))
    .get("/themes/:slug", sharedRead, async (c) =>
      c.json(await poems.getTheme(parseInput(slugParam, c.req.param("slug")))),
    );
}
