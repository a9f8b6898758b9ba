import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { FediverseOutbound } from "./outbound.ts";

/** The delivery state of each poem sent to fediverse followers, on the admin router. */
export function fediverseDeliveryRoutes(services: { fediverseOutbound: FediverseOutbound }) {
  return routesAt<AdminEnv>(mounts.admin).call(endpoints.fediverseDeliveries, (_input, c) =>
    services.fediverseOutbound.deliveryState(c.var.admin),
  ).router;
}
