import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/client.ts";
import type { PublicFetchOptions } from "./http/public-fetch.ts";
import type { Logger } from "./logger.ts";
import { createMailer } from "./mail/transport.ts";
import { createServices, type ServiceTuning } from "./services.ts";
import type { ObjectStore } from "./storage/local.ts";
import { createObjectStore } from "./storage/object-store.ts";

/**
 * The one composition root (docs/ARCHITECTURE.md): the services of one process, with the mailer
 * and the object store they run on, wired one way for the server (server/main.ts), the
 * operator's CLI (server/cli.ts) and the tests. The HTTP app, the control socket and the jobs
 * take what it built. `close` ends the mailer's connections; the database is the caller's.
 */
export async function composeProcess(given: {
  config: Config;
  logger: Logger;
  handle: DatabaseHandle;
  /** The clock (tests set it; servers read the time). */
  now?: () => Date;
  /** Tests keep objects in their own folder; servers use the configured store. */
  objectStore?: ObjectStore;
  /** Tests point host names at their own loopback server; servers check real DNS answers. */
  urlCheck?: PublicFetchOptions;
  /** Tests shorten leases, retries and batches; servers use the defaults. */
  tuning?: ServiceTuning;
}) {
  const { config, logger, handle } = given;
  const mailer = createMailer(config, logger);
  const objectStore = given.objectStore ?? (await createObjectStore(config));
  const services = createServices({
    db: handle.db,
    config,
    logger,
    handle,
    now: given.now,
    mailer,
    objectStore,
    urlCheck: given.urlCheck,
    ...given.tuning,
  });
  return {
    mailer,
    objectStore,
    services,
    close: () => mailer.close(),
  };
}

export type Process = Awaited<ReturnType<typeof composeProcess>>;
