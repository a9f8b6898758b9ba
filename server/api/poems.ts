import { Hono } from "hono";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import { sharedRead } from "../http/cache-policy.ts";
import type { AppEnv } from "../http/env.ts";
import { parseInput } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const slugParam = z.string().check(z.minLength(1), z.maxLength(200));

/** Public reads: GET /api/poems, /api/poems/{slug}, /api/tags, /api/themes/{slug}. */
export function poemRoutes(services: Services) {
  const { poems } = services;
  return new Hono<AppEnv>()
    .get("/poems", sharedRead, async (c) => {
      const query = parseInput(endpoints.listPoems.query, c.req.query());
      return answer(c, endpoints.listPoems, await poems.listPoems(query));
    })
    .get("/poems/:slug", sharedRead, async (c) =>
      answer(
        c,
        endpoints.getPoem,
        await poems.getPoem(c.get("audience"), parseInput(slugParam, c.req.param("slug"))),
      ),
    )
    .get("/tags", sharedRead, async (c) => answer(c, endpoints.listTags, await poems.listTags()))
    .get("/themes/:slug", sharedRead, async (c) =>
      answer(
        c,
        endpoints.getTheme,
        await poems.getTheme(parseInput(slugParam, c.req.param("slug"))),
      ),
    );
}
