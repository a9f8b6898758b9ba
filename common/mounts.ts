/**
 * Where the server mounts its routers (server/app.ts): every declared path under a mount starts
 * with it (server/http/routes.ts checks). Beside them, the few paths declared apart from the
 * lists of pages, calls and other routes.
 */
export const mounts = {
  api: "/api",
  admin: "/api/admin",
  objects: "/objects",
  cards: "/og",
  /** The build's content-hashed files. */
  assets: "/assets",
} as const;

/**
 * The JSON call a page's form also posts to without JavaScript (the sign-in page's email form):
 * declared here, where a page may read it, and by common/endpoints.ts as the call's path.
 */
export const SIGN_IN_LINK_PATH = "/api/auth/email-link";

/**
 * better-auth's base path, and its own endpoints that the server calls in-process
 * (server/accounts/sign-in.ts, server/accounts/auth-routes.ts): none is routed to it from outside but the
 * OIDC callback (common/other-routes.ts).
 */
export const AUTH_BASE_PATH = "/api/auth";
export const authHandlerPaths = {
  verifyMagicLink: `${AUTH_BASE_PATH}/magic-link/verify`,
  socialSignIn: `${AUTH_BASE_PATH}/sign-in/social`,
} as const;
