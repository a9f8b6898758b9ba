import { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../services/index.ts";

export function healthRoutes(services: Services) {
  return new Hono<AppEnv>().get("/health", async (c) => {
    const report = await services.health.checkHealth();
    return c.json(report, report.status === "ok" ? 200 : 503);
  });
}
