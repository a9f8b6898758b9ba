import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";

/** What every service is built from: one per app instance. */
export interface ServiceDeps {
  db: Database;
  config: Config;
  logger: Logger;
  /** The clock: what "now" is for publication and schedules (tests set it; servers read the time). */
  now: () => Date;
}
