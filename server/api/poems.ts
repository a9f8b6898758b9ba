import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/env.ts";
import { parseInput } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const poemListQuery = z.object({ tag: z.string().max(200).optional() });
const slugParam = z.string().min(1).max(200);

/** Public reads: GET /api/poems, /api/poems/{slug}, /api/tags, /api/themes/{slug}. */
export function poemRoutes(services: Services) {
  const { poems } = services;
  return new Hono<AppEnv>()
    .get("/poems", async (c) => {
      const query = parseInput(poemListQuery, c.req.query());
      return c.json(await poems.listPoems({ tag: query.tag }));
    })
    .get("/poems/:slug", async (c) =>
      c.json(await poems.getPoem(parseInput(slugParam, c.req.param("slug")))),
    )
    .get("/tags", async (c) => c.json(await poems.listTags()))
    .get("/themes/:slug", async (c) =>
      c.json(await poems.getTheme(parseInput(slugParam, c.req.param("slug")))),
    );
}
