import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { FediverseDeliveryOptions } from "../../server/fediverse/delivery.ts";
import type { PageHandler } from "../../server/http/page-handler.ts";
import type { PublicFetchOptions } from "../../server/http/public-fetch.ts";
import { createLogger } from "../../server/logger.ts";
import { createMailer } from "../../server/mail/transport.ts";
import { createReadingFetcher } from "../../server/services/audio.ts";
import type { ChapbookBuilderOptions } from "../../server/services/chapbook-builder.ts";
import type { DigestSenderOptions } from "../../server/services/digest-sender.ts";
import { createCoverFetcher } from "../../server/services/images.ts";
import type { ImportOptions } from "../../server/services/import.ts";
import { createServices } from "../../server/services/index.ts";
import { createLocalObjectStore } from "../../server/storage/local.ts";
import { type Driver, openTestDatabase } from "./database.ts";
import { dateRowsBy } from "./factories.ts";

export interface TestAppOptions {
  env?: Record<string, string>;
  digestSenderOptions?: Partial<DigestSenderOptions>;
  fediverseDeliveryOptions?: Partial<FediverseDeliveryOptions>;
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
  /** Smaller import batches and leases, for tests that stop a job halfway. */
  importOptions?: Partial<ImportOptions>;
  /** Where an import may fetch covers and readings from (a test's own loopback server); else public addresses. */
  coverUrlCheck?: PublicFetchOptions;
  /** A chapbook build held open, or a shorter lease. */
  chapbookBuilderOptions?: Partial<ChapbookBuilderOptions>;
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
  const mailer = createMailer(config, logger);
  const objectStore = createLocalObjectStore(dataDir);
  const services = createServices({
    db: handle.db,
    config,
    logger,
    handle,
    mailer,
    now: options.now,
    digestSenderOptions: options.digestSenderOptions,
    importOptions: options.importOptions,
    fetchCover: createCoverFetcher(objectStore, options.coverUrlCheck),
    fetchReading: createReadingFetcher(objectStore, options.coverUrlCheck),
    fediverseDeliveryOptions: options.fediverseDeliveryOptions,
    readStoredObject: (key) => objectStore.get(key),
    chapbookBuilderOptions: options.chapbookBuilderOptions,
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
      mailer.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
