import {
  createRequestHandler,
  type RouterContext,
  RouterContextProvider,
  type ServerBuild,
} from "react-router";
import type { AppLoadContext } from "../../common/load-context.ts";

/** Renders a page: React Router's request handler, given the request and its load context. */
export type PageHandler = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/**
 * The load context's key as the build made it: app/entry.server.tsx exports the build's copy of
 * `appContext` (app/lib/app-context.ts). The server takes it from there rather than importing the
 * module, which would make a second copy with a key no loader reads (decision 037).
 */
function appContextOf(build: ServerBuild): RouterContext<AppLoadContext> {
  const { appContext } = build.entry.module as { appContext?: RouterContext<AppLoadContext> };
  if (!appContext) throw new Error("The server build exports no appContext (app/entry.server.tsx)");
  return appContext;
}

/**
 * React Router's request handler for a build (production) or for the build Vite loads on each
 * request (development), handed each page's load context under the build's own key.
 */
export function createPageHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: "production" | "development",
): PageHandler {
  const handler = createRequestHandler(build, mode);
  const render = (
    appContext: RouterContext<AppLoadContext>,
    request: Request,
    loadContext: AppLoadContext,
  ) => {
    const context = new RouterContextProvider();
    context.set(appContext, loadContext);
    return handler(request, context);
  };
  if (typeof build === "function") {
    return async (request, loadContext) =>
      render(appContextOf(await build()), request, loadContext);
  }
  const appContext = appContextOf(build);
  return (request, loadContext) => render(appContext, request, loadContext);
}
