import type { HealthReport } from "../../common/schemas/health.ts";
import type { DatabaseHandle } from "../db/client.ts";

/** A database that does not answer within this bound counts as down, so /api/health never hangs. */
const PING_TIMEOUT_MS = 2_000;

export function createHealthService(handle: DatabaseHandle) {
  return {
    async checkHealth(): Promise<HealthReport> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("ping timed out")), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([handle.ping(), timeout]);
        return { status: "ok", database: "up", driver: handle.driver };
      } catch {
        return { status: "unavailable", database: "down", driver: handle.driver };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
