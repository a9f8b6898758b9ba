import { type Handler, Hono, type MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { endpoints } from "../common/endpoints.ts";
import type { AppLoadContext } from "../common/load-context.ts";
import { mounts } from "../common/mounts.ts";
import * as otherRoutes from "../common/other-routes.ts";
import { type Audience, audienceOf, isAdmin } from "../common/session.ts";
import { accountRoutes } from "./accounts/account-routes.ts";
import type { AccountService } from "./accounts/accounts.ts";
import { authRoutes } from "./accounts/auth-routes.ts";
import { clearedSessionCookie, sessionCookieIn } from "./accounts/session-cookie.ts";
import { adminRoutes } from "./admin-router.ts";
import { chapbookFileRoutes } from "./chapbook/routes.ts";
import type { Config } from "./config.ts";
import { emberAndBookRoutes } from "./content/ember-book-routes.ts";
import { poemRoutes } from "./content/poem-routes.ts";
import { searchRoutes } from "./content/search-routes.ts";
import { siteFileRoutes } from "./content/site-file-routes.ts";
import { requireAdmin } from "./core/actor.ts";
import { subscriptionRoutes } from "./digest/subscription-routes.ts";
import { activityObjects, fediverseRoutes } from "./fediverse/routes.ts";
import { apiBodyLimit } from "./http/body-limit.ts";
import { builtFiles } from "./http/built-files.ts";
import { tellCaches, varyWithCookie } from "./http/cache-policy.ts";
import { canonicalPagePath } from "./http/canonical-path.ts";
import { compressText } from "./http/compression.ts";
import type { AppEnv } from "./http/env.ts";
import { createErrorHandler, isConnectionError, withPageOutageErrors } from "./http/errors.ts";
import type { PageHandler } from "./http/page-handler.ts";
import { requireSameOrigin } from "./http/same-origin.ts";
import { assetHeaders, securityHeaders } from "./http/security-headers.ts";
import { digestLinkRoutes, readingBeaconRoutes } from "./insights/routes.ts";
import { interactionRoutes } from "./interactions/routes.ts";
import type { Logger } from "./logger.ts";
import { readingCaptionRoutes } from "./media/caption-routes.ts";
import { objectRoutes } from "./media/object-routes.ts";
import { localUploadRoutes } from "./media/upload-routes.ts";
import { healthRoutes } from "./operations/health-routes.ts";
import type { Services } from "./services.ts";
import { ogRoutes } from "./share/card-routes.ts";
import type { ObjectStore } from "./storage/local.ts";

/** What the page cache hands `app.fetch` when it renders a page's shared copy for an audience. */
export interface PageCacheBindings {
  renderForAudience: Audience;
}

export interface AppDeps {
  config: Config;
  logger: Logger;
  services: Services;
  /** The store the services were built on (server/compose.ts): stored files are served from it. */
  objectStore: ObjectStore;
  /** Absent in API-only tests; main.ts passes React Router's handler (dev or built). */
  pageHandler?: PageHandler;
  /** The built client (build/client) in production; absent in dev (Vite serves it) and tests. */
  clientAssetsDir?: string;
}

/** JSON bodies on the API are small; larger ones are refused before they are read whole. */
const API_BODY_LIMIT_BYTES = 100 * 1024;

export function createApp(deps: AppDeps) {
  const { config, logger, services } = deps;
  const app = new Hono<AppEnv>();

  app.onError(createErrorHandler(logger));
  app.use(tellCaches);
  app.use(requestId());
  app.use(requestLog(logger));
  app.route("/", readingBeaconRoutes(services, config, apiBodyLimit(API_BODY_LIMIT_BYTES)));
  // Outside the assets too: a built file served as it is still says that it varies with
  // Accept-Encoding, and one without a compressed copy beside it is gzipped on the way out.
  app.use(compressText());
  if (deps.clientAssetsDir) {
    // Content-hashed build output never changes under its name. The build wrote a .br and a .gz
    // beside each text file (react-router.config.ts).
    app.use(
      `${mounts.assets}/*`,
      assetHeaders(config),
      builtFiles(deps.clientAssetsDir, {
        cacheControl: "public, max-age=31536000, immutable",
        precompressed: true,
      }),
    );
  }
  const { images, audio } = services;
  app.use(securityHeaders(config));
  // Before the pages: a poem's address answers its ActivityStreams object to a client that asks
  // for one, and the actor's documents and inboxes need no session. With FEDIVERSE=false the
  // pages are only pages and the actor's addresses answer 404.
  if (config.fediverse.enabled) app.use(activityObjects(services, config));
  app.route(
    "/",
    fediverseRoutes(services, {
      isEnabled: config.fediverse.enabled,
      logger,
      trustProxy: config.trustProxy,
    }),
  );
  app.route(mounts.objects, objectRoutes(deps.objectStore, images.createMissingImage, audio));
  app.route("/", localUploadRoutes(images.uploads, otherRoutes.uploadImage));
  app.route("/", localUploadRoutes(audio.uploads, otherRoutes.uploadAudio));
  app.route(mounts.cards, ogRoutes(services));
  app.route("/", siteFileRoutes(services, config));

  if (deps.clientAssetsDir) {
    const publicFiles = builtFiles(deps.clientAssetsDir, { cacheControl: "public, max-age=3600" });
    app.use("*", (c, next) => (/\.[a-z0-9]+$/i.test(c.req.path) ? publicFiles(c, next) : next()));
  }

  // Static files and images above need no session; everything below knows who is asking.
  app.use(whoIsAsking(services.accounts));
  app.route(mounts.api, apiRoutes(services, config));
  app.route("/", chapbookFileRoutes(services));
  app.route("/", readingCaptionRoutes(services));
  app.all("*", pages(deps));

  return app;
}

/** One line of the log for each request, once it is answered. */
function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info(
      {
        requestId: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
  };
}

/** Sets the request's actor and audience, from its session cookie. */
function whoIsAsking(accounts: AccountService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The page cache renders a page for an audience, as nobody in particular (server/main.ts):
    // a binding no request from the network can carry.
    const sharedFor = (c.env as PageCacheBindings | undefined)?.renderForAudience;
    if (sharedFor) {
      c.set("actor", null);
      c.set("audience", sharedFor);
      await next();
      varyWithCookie(c);
      return;
    }
    let clearsCookie: string | undefined;
    try {
      const actor = await accounts.resolveActor(c.req.raw);
      c.set("actor", actor);
      c.set("audience", audienceOf(actor));
      // A session cookie naming no session (forged, garbled, expired, signed out): answered as
      // anonymous, and the cookie goes, so later requests stop carrying it.
      if (!actor) clearsCookie = sessionCookieIn(c.req.header("cookie") ?? "")?.name;
    } catch (error) {
      // A page still gets the friendly 503 page (from its root loader) when the session cannot
      // be looked up because the database is away; the API answers 503 from its error handler.
      if (c.req.path.startsWith(`${mounts.api}/`) || !isConnectionError(error)) throw error;
      c.set("actor", null);
      c.set("audience", "anonymous");
      c.set("isDatabaseUnavailable", true);
    }
    await next();
    varyWithCookie(c);
    if (
      clearsCookie &&
      !c.res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${clearsCookie}=`))
    ) {
      c.header("Set-Cookie", clearedSessionCookie(clearsCookie), { append: true });
    }
  };
}

/** Every call under /api, each feature's routes on one router. */
function apiRoutes(services: Services, config: Config) {
  const api = new Hono<AppEnv>();
  api.use(apiBodyLimit(API_BODY_LIMIT_BYTES, (path) => path === endpoints.previewImport.path));
  // The one-click unsubscribe comes from mail providers, not our pages: its signed link allows it.
  api.use(requireSameOrigin(config, (path) => path === otherRoutes.unsubscribe.path));
  api.route("/", healthRoutes(services));
  api.route("/", authRoutes(services, config));
  api.route("/", poemRoutes(services));
  api.route("/", emberAndBookRoutes(services, config));
  api.route("/", searchRoutes(services));
  api.route("/", interactionRoutes(services));
  api.route("/", accountRoutes(services));
  api.route("/", subscriptionRoutes(services, config));
  api.route("/", digestLinkRoutes(services, config));
  api.route(mounts.admin.slice(mounts.api.length), adminRoutes(services));
  api.all("*", (c) => c.json({ message: "Not found" }, 404));
  return api;
}

/**
 * What no route above answers: a page, rendered by React Router with the request's load context,
 * or an imported poem's old address.
 */
function pages({ config, services, pageHandler }: AppDeps): Handler<AppEnv> {
  const pageServices = withPageOutageErrors(services);
  /**
   * An imported poem's old address (docs/decisions/052-the-import-job.md): a 301 to its page, on
   * whatever host the request came by (the Location is a path). Looked up only where no page
   * answers, and for the home page only with WordPress's `?p=`, from memory.
   */
  const oldLink = async (method: string, url: URL) => {
    if (method !== "GET" && method !== "HEAD") return undefined;
    const location = await services.imports.redirectFor(url.pathname, url.search);
    return location
      ? new Response(null, { status: 301, headers: { Location: location } })
      : undefined;
  };
  return async (c) => {
    const url = new URL(c.req.url);
    // One page, one path (server/http/canonical-path.ts): any other spelling is a 301 to it.
    const canonical =
      c.req.method === "GET" || c.req.method === "HEAD"
        ? canonicalPagePath(url.pathname)
        : undefined;
    if (canonical) {
      return new Response(null, {
        status: 301,
        headers: { Location: `${canonical}${url.search}` },
      });
    }
    if (url.pathname === "/" && url.searchParams.has("p")) {
      const moved = await oldLink(c.req.method, url);
      if (moved) return moved;
    }
    if (!pageHandler)
      return (await oldLink(c.req.method, url)) ?? c.text("404 Page Not Found", 404);
    const actor = c.get("actor");
    const isDatabaseUnavailable = c.get("isDatabaseUnavailable") ?? false;
    // The site's name as the poet set it, for every page's title, header and share texts.
    const siteName = isDatabaseUnavailable
      ? config.siteName
      : (await services.siteSettings.identity()).name;
    const loadContext: AppLoadContext = {
      services: pageServices,
      actor,
      admin: isAdmin(actor) ? requireAdmin(actor) : null,
      audience: c.get("audience"),
      isDatabaseUnavailable,
      nonce: c.get("secureHeadersNonce") ?? "",
      site: {
        name: siteName,
        publicUrl: config.publicUrl.origin,
        timezone: config.siteTimezone,
        fediverseHandle: config.fediverse.enabled ? services.fediverse.handle : null,
      },
    };
    // A HEAD is rendered as its GET, so compression tells it the GET's coding and length.
    const asked = c.req.method === "HEAD" ? new Request(c.req.raw, { method: "GET" }) : c.req.raw;
    const page = await pageHandler(asked, loadContext);
    if (page.status === 404 && url.pathname !== "/") {
      const moved = await oldLink(c.req.method, url);
      if (moved) return moved;
    }
    return page;
  };
}

export type App = ReturnType<typeof createApp>;
