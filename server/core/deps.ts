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
  /**
   * This instance is the only one on its database: the embedded one, which one process holds
   * under its lock file. Everything that changes sessions, rate-limit counts and readers' marks
   * then passes through this process, so they are kept in memory exactly; on PostgreSQL, which
   * any number of instances share, they are read from it (decision 025).
   */
  ownsDatabase: boolean;
}
