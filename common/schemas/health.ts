import { z } from "zod/mini";

/** GET /api/health: 200 when the database answers, 503 with the same shape when it does not. */
export const healthReport = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.enum(["up", "down"]),
  driver: z.enum(["pglite", "postgres"]),
});
export type HealthReport = z.output<typeof healthReport>;
