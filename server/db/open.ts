import type { Config } from "../config.ts";
import { type DatabaseHandle, openDatabase } from "./client.ts";

/** The configured database: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
export function openDatabaseFor(config: Config): Promise<DatabaseHandle> {
  return openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "pglite", dataDir: config.dataDir },
  );
}
