import { Hono } from "hono";
import { endpoints } from "../../common/endpoints.ts";
import { answer } from "../http/answer.ts";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../services/index.ts";

export function healthRoutes(services: Services) {
  return new Hono<AppEnv>().get("/health", async (c) => {
    const report = await services.health.checkHealth();
    return answer(c, endpoints.health, report, report.status === "ok" ? 200 : 503);
  });
}
