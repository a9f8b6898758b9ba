import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import { answer } from "../http/answer.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { HealthService } from "./health.ts";

/** The health report: 200 when every check passes, 503 (with the same report) when one fails. */
export function healthRoutes(services: { health: HealthService }) {
  return routesAt<AppEnv>(mounts.api).route(endpoints.health, async (c) => {
    const report = await services.health.checkHealth();
    return answer(c, endpoints.health, report, report.status === "ok" ? 200 : 503);
  }).router;
}
