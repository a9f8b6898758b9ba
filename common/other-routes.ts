/**
 * A route the server answers that is neither a page nor a JSON call of the contract
 * (common/endpoints.ts): a redirect, a form post, a file, a signed upload. Its path is written
 * as Hono routes it (`:name`, `:name{pattern}`). The server registers it from here
 * (server/http/routes.ts) and the access matrix lists it from here, so every route the server
 * answers is declared once, in this file or in the contract (decision 036). What each answers (a
 * redirect, a file, JSON or nothing) is noted at its end: the browser's bundle carries only the
 * method and the path.
 */
export interface OtherRoute {
  method: "GET" | "POST" | "PUT";
  path: `/${string}`;
}

/*
 * Every route besides the pages and the JSON calls, one export each, read as a whole with
 * `import * as otherRoutes` (a page's bundle then keeps only the routes it names). Not called
 * with `callApi`: the browser reaches them by navigation, a form, an `<img>` or `<audio>`, a
 * signed URL or a mail link.
 */
/** Answers a file. */
export const robotsTxt = { method: "GET", path: "/robots.txt" } as const satisfies OtherRoute;

/** Answers a file. */
export const sitemap = { method: "GET", path: "/sitemap.xml" } as const satisfies OtherRoute;

/** Answers a file. */
export const feed = { method: "GET", path: "/feed.xml" } as const satisfies OtherRoute;

/** Answers a file. */
export const webManifest = {
  method: "GET",
  path: "/manifest.webmanifest",
} as const satisfies OtherRoute;

/** Answers a file. */
export const storedImage = {
  method: "GET",
  path: "/objects/images/:name{[A-Za-z0-9_.-]+}",
} as const satisfies OtherRoute;

/** Answers a file. */
export const storedAudio = {
  method: "GET",
  path: "/objects/audio/:id",
} as const satisfies OtherRoute;

/**
 * The browser's PUT of an upload to local disk, allowed by its signed URL, not a session. Answers
 * JSON.
 */
export const uploadImage = {
  method: "PUT",
  path: "/uploads/images/:id",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const uploadAudio = {
  method: "PUT",
  path: "/uploads/audio/:id",
} as const satisfies OtherRoute;

/**
 * A poem's reading as WebVTT captions, one cue per stanza (docs/product/chapbook.md). Answers a
 * file.
 */
export const readingCaptions = {
  method: "GET",
  path: "/poetry/:slug/reading.vtt",
} as const satisfies OtherRoute;

/** A chapbook's files, when it is downloadable (or to the admin). Answers a file. */
export const chapbookFile = {
  method: "GET",
  path: "/chapbooks/:file{[a-z0-9-]+\\.(pdf|epub)}",
} as const satisfies OtherRoute;

/** Answers a file. */
export const stanzaCard = {
  method: "GET",
  path: "/og/stanza/:slug/:file{[0-9A-Za-z-]+\\.png}",
} as const satisfies OtherRoute;

/**
 * The site as a fediverse actor (docs/decisions/045-federation-layer.md), answered by Fedify:
 * discovery documents, the actor and its collections (ActivityStreams JSON), and the inboxes,
 * which take signed activities from other servers.
 * Answers JSON.
 */
export const webfinger = {
  method: "GET",
  path: "/.well-known/webfinger",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const nodeInfoLinks = {
  method: "GET",
  path: "/.well-known/nodeinfo",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const nodeInfo = {
  method: "GET",
  path: "/fediverse/nodeinfo/2.1",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const fediverseActor = {
  method: "GET",
  path: "/fediverse/actor/:identifier",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const fediverseOutbox = {
  method: "GET",
  path: "/fediverse/actor/:identifier/outbox",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const fediverseFollowers = {
  method: "GET",
  path: "/fediverse/actor/:identifier/followers",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const fediverseInbox = {
  method: "POST",
  path: "/fediverse/actor/:identifier/inbox",
} as const satisfies OtherRoute;

/** Answers JSON. */
export const fediverseSharedInbox = {
  method: "POST",
  path: "/fediverse/inbox",
} as const satisfies OtherRoute;

/** Full-page navigation to the sign-in page, returning where the reader was. Answers a redirect. */
export const login = { method: "GET", path: "/api/login" } as const satisfies OtherRoute;

/** Answers a redirect. */
export const logout = { method: "GET", path: "/api/logout" } as const satisfies OtherRoute;

/**
 * The Continue button on /login/verify: the only way an emailed link signs in. Answers a redirect.
 */
export const verifySignInLink = {
  method: "POST",
  path: "/api/auth/email-link/verify",
} as const satisfies OtherRoute;

/** The operator's printed link (CLI login-link); it is never mailed. Answers a redirect. */
export const cliLogin = {
  method: "GET",
  path: "/api/auth/cli-login",
} as const satisfies OtherRoute;

/** Answers a redirect. */
export const startOidcSignIn = {
  method: "POST",
  path: "/api/auth/oidc/start",
} as const satisfies OtherRoute;

/** Answers a redirect. */
export const oidcCallback = {
  method: "GET",
  path: "/api/auth/callback/:providerId",
} as const satisfies OtherRoute;

/** The link in the confirmation mail. Answers a redirect. */
export const verifySubscription = {
  method: "GET",
  path: "/api/subscribe/verify",
} as const satisfies OtherRoute;

/**
 * RFC 8058 one-click unsubscribe from mail providers (JSON) and the confirm page's form
 * (a redirect); the signed link is the authority.
 * Answers JSON or a redirect.
 */
export const unsubscribe = {
  method: "POST",
  path: "/api/unsubscribe",
} as const satisfies OtherRoute;

/**
 * The same List-Unsubscribe address opened in a browser: on to the page with its button. Answers a
 * redirect.
 */
export const unsubscribeInBrowser = {
  method: "GET",
  path: "/api/unsubscribe",
} as const satisfies OtherRoute;

/**
 * The stanza viewer's reading beacon (`navigator.sendBeacon`, a text/plain JSON body, no
 * cookie): which stanzas were on screen for 2 s, or which one was shared. Not a call readers'
 * code decodes: it answers 204, or 400/429 with a message (docs/product/insights.md).
 * Answers nothing (204).
 */
export const readingBeacon = {
  method: "POST",
  path: "/api/insights/reading",
} as const satisfies OtherRoute;

/**
 * A digest's link: counts a click for its run and link, then on to the page; 404 if forged.
 * Answers a redirect.
 */
export const digestLink = {
  method: "GET",
  path: "/api/digest/link/:token",
} as const satisfies OtherRoute;

/** Answers a file. */
export const subscribersCsv = {
  method: "GET",
  path: "/api/admin/subscribers.csv",
} as const satisfies OtherRoute;
