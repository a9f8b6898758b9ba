import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { createApp, type PageCacheBindings } from "./app.ts";
import { composeProcess } from "./compose.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { startControlSocket } from "./control/socket.ts";
import { CONTENT_CHANGED_CHANNEL } from "./core/content-changes.ts";
import { openDatabaseFor } from "./db/open.ts";
import { seedDemo } from "./db/seed-demo.ts";
import { nextVisibilityChange } from "./db/visibility.ts";
import { createCachePolicy } from "./http/cache-policy.ts";
import { createPageCache } from "./http/page-cache.ts";
import { createPageHandler, type PageHandler } from "./http/page-handler.ts";
import { createPageViewCounter } from "./http/page-views.ts";
import { createLogger } from "./logger.ts";

/**
 * The process: validate configuration, open and migrate the database, seed demo content, serve
 * HTTP (dev: Vite middleware with hot reload; prod: the built app), and shut down gracefully.
 */
const logger = createLogger();
const isDev = process.argv.includes("--dev");
const root = path.resolve(import.meta.dirname, "..");

/** In-flight requests get this long to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

function exitWith(message: string): never {
  logger.fatal(message);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) exitWith(error.message);
  throw error;
}

const handle = await openDatabaseFor(config).catch((error: Error) =>
  exitWith(`Cannot open the database: ${error.message}`),
);
await handle
  .ping()
  .catch((error: Error) => exitWith(`Cannot reach the database: ${error.message}`));
await handle.migrate().catch((error: Error) => exitWith(`Migrations failed: ${error.message}`));
if (config.demoContent) await seedDemo(handle.db, config, logger);

const {
  services,
  objectStore,
  close: closeMailer,
} = await composeProcess({
  config,
  logger,
  handle,
});

const server = http.createServer();
// Every request passes here first, page-cache hit or not: the one place pages are counted.
if (config.counting) server.on("request", createPageViewCounter(services.insights, config));
let pageHandler: PageHandler;
let clientAssetsDir: string | undefined;
let closeVite = async () => {};

if (isDev) {
  const { createServer } = await import("vite");
  const vite = await createServer({
    root,
    server: { middlewareMode: true, hmr: { server } },
    appType: "custom",
  });
  closeVite = () => vite.close();
  pageHandler = createPageHandler(
    () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    "development",
  );
  const listener = getRequestListener(
    createApp({ config, logger, services, objectStore, pageHandler }).fetch,
  );
  server.on("request", (req, res) => vite.middlewares(req, res, () => listener(req, res)));
} else {
  const buildEntry = path.join(root, "build/server/index.js");
  if (!fs.existsSync(buildEntry)) {
    logger.info("no build found: building the app once (npm run build)");
    const result = spawnSync(path.join(root, "node_modules/.bin/react-router"), ["build"], {
      cwd: root,
      stdio: "inherit",
    });
    if (result.status !== 0) exitWith("The build failed; see the output above.");
  }
  const build = (await import(buildEntry)) as ServerBuild;
  pageHandler = createPageHandler(build, "production");
  clientAssetsDir = path.join(root, "build/client");
  const app = createApp({ config, logger, services, objectStore, pageHandler, clientAssetsDir });
  const listener = getRequestListener(app.fetch);
  const pageCache = config.pageCache
    ? createPageCache({
        render: async (pathWithQuery, audience) =>
          app.fetch(new Request(new URL(pathWithQuery, config.publicUrl)), {
            renderForAudience: audience,
          } satisfies PageCacheBindings),
        sharingOf: createCachePolicy({ routes: app.routes, build }),
        audienceOf: services.accounts.audienceOf,
        nextVisibilityChange: () =>
          nextVisibilityChange(handle.db, new Date(), config.siteTimezone),
        logger,
      })
    : undefined;
  if (pageCache) services.contentChanges.onChange(() => pageCache.clear());
  server.on("request", (request, response) => {
    const passToApp = () => void listener(request, response);
    if (pageCache) pageCache.serve(request, response, passToApp);
    else passToApp();
  });
}

// Other instances announce their admin writes through NOTIFY (server/core/content-changes.ts).
const stopListening = await handle
  .listen(CONTENT_CHANGED_CHANNEL, services.contentChanges.received)
  .catch((error: Error) => exitWith(`Cannot listen for content changes: ${error.message}`));

const control =
  handle.driver === "pglite"
    ? await startControlSocket({ config, handle, logger, services })
    : undefined;

// Every background job; on the embedded database, claims from before a crash are released first.
await services.jobs.start();

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info(
    { port, driver: handle.driver, mode: isDev ? "development" : "production" },
    `listening on ${config.publicUrl.origin}`,
  );
});
server.on("error", (error: NodeJS.ErrnoException) =>
  exitWith(
    error.code === "EADDRINUSE"
      ? `Port ${config.port} is already in use (set PORT)`
      : error.message,
  ),
);

let shuttingDown = false;
// While shutting down, each response tells its client to close the connection afterwards, so a
// keep-alive client's next request opens a new connection, which is refused, never reset.
server.prependListener("request", (_request, response) => {
  if (shuttingDown) response.setHeader("Connection", "close");
});
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
  const forced = setTimeout(() => {
    logger.warn("in-flight requests did not finish in time; closing connections");
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  forced.unref();
  // Stop accepting, but not http.Server#close, which also drops idle keep-alive connections at
  // once: a request already on its way over one of them would be reset. Those connections end
  // after their next response (Connection: close above) or when their keep-alive timeout ends.
  await new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
  await control?.close();
  await closeVite();
  // The counts still in memory reach the database before it closes (the counting stops last).
  await services.jobs.stop();
  await stopListening();
  closeMailer();
  await handle.close();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
