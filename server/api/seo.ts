import { Hono } from "hono";
import type { Config } from "../config.ts";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../services/index.ts";

/** /sitemap.xml, /robots.txt and /feed.xml (being written). */
export function seoRoutes(_services: Services, _config: Config) {
  return new Hono<AppEnv>();
}
