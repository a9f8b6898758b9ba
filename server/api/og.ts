import { Hono } from "hono";
import type { Config } from "../config.ts";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../services/index.ts";

/** Open Graph images: GET /og/stanza/{slug}/{index}.png (being written). */
export function ogRoutes(_services: Services, _config: Config) {
  return new Hono<AppEnv>();
}
