import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createApp } from "../../server/app.ts";
import { composeProcess } from "../../server/compose.ts";
import { loadConfig } from "../../server/config.ts";
import type { PageHandler } from "../../server/http/page-handler.ts";
import type { PublicFetchOptions } from "../../server/http/public-fetch.ts";
import { createLogger } from "../../server/logger.ts";
import type { ServiceTuning } from "../../server/services.ts";
import { createLocalObjectStore, type ObjectStore } from "../../server/storage/local.ts";
import { type Driver, openTestDatabase } from "./database.ts";
import { dateRowsBy } from "./factories.ts";

export interface TestAppOptions extends ServiceTuning {
  env?: Record<string, string>;
  /** Renders pages (React Router's handler for the build); without it pages answer a plain 404. */
  pageHandler?: PageHandler;
  /** A built client to serve under /assets, as in production; without it /assets is not served. */
  clientAssetsDir?: string;
  /** Where the app logs (every level); without it the app logs nothing. */
  logDestination?: { write(line: string): void };
  /** PostgreSQL connections in the pool, for tests of concurrent writes (default 5). */
  poolSize?: number;
  /** Sees every statement the app sends to the database (tests count them). */
  onQuery?: (statement: string) => void;
  /** The services' clock, for tests of publication times and schedules (default: the time). */
  now?: () => Date;
  /**
   * Where covers, readings and checked image URLs may be fetched from (a test's own loopback
   * server); else public addresses only.
   */
  urlCheck?: PublicFetchOptions;
  /** Where objects are kept (a test's bucket); else a folder of the test's own. */
  objectStore?: ObjectStore;
}

/**
 * The real Hono app on a fresh database of the given driver, for app.request() tests. Call
 * close() in afterAll.
 */
export async function createTestApp(driver: Driver, options: TestAppOptions = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: "http://localhost:3000",
    ...options.env,
  });
  const logger = options.logDestination
    ? createLogger("trace", options.logDestination)
    : createLogger("silent");
  const handle = await openTestDatabase(driver, {
    poolSize: options.poolSize,
    onQuery: options.onQuery,
  });
  if (options.now) dateRowsBy(handle.db, options.now);
  const { services, objectStore, close } = await composeProcess({
    config,
    logger,
    handle,
    now: options.now,
    objectStore: options.objectStore ?? createLocalObjectStore(dataDir),
    urlCheck: options.urlCheck,
    tuning: options,
  });
  const app = createApp({
    config,
    logger,
    services,
    objectStore,
    pageHandler: options.pageHandler,
    clientAssetsDir: options.clientAssetsDir,
  });
  return {
    app,
    config,
    handle,
    db: handle.db,
    services,
    dataDir,
    async close() {
      close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
