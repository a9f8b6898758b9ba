/**
 * A route the server answers that is neither a page nor a JSON call of the contract
 * (common/endpoints.ts): a redirect, a form post, a file, a signed upload. Its path is written
 * as Hono routes it (`:name`, `:name{pattern}`). The server registers it from here
 * (server/http/routes.ts) and the access matrix lists it from here, so every route the server
 * answers is declared once, in this file or in the contract (decision 036).
 */
export interface OtherRoute {
  method: "GET" | "POST" | "PUT";
  path: `/${string}`;
  /** What it answers, for the reader of this list. */
  answers: "redirect" | "file" | "json or redirect" | "json" | "no content";
}

const route = <const R extends OtherRoute>(declared: R) => declared;

/**
 * Every route besides the pages and the JSON calls. Not called with `callApi`: the browser
 * reaches them by navigation, a form, an `<img>` or `<audio>`, a signed URL or a mail link.
 */
export const otherRoutes = {
  robotsTxt: route({ method: "GET", path: "/robots.txt", answers: "file" }),
  sitemap: route({ method: "GET", path: "/sitemap.xml", answers: "file" }),
  feed: route({ method: "GET", path: "/feed.xml", answers: "file" }),
  webManifest: route({ method: "GET", path: "/manifest.webmanifest", answers: "file" }),
  storedImage: route({
    method: "GET",
    path: "/objects/images/:name{[A-Za-z0-9_.-]+}",
    answers: "file",
  }),
  storedAudio: route({ method: "GET", path: "/objects/audio/:id", answers: "file" }),
  /** The browser's PUT of an upload to local disk, allowed by its signed URL, not a session. */
  uploadImage: route({ method: "PUT", path: "/uploads/images/:id", answers: "json" }),
  uploadAudio: route({ method: "PUT", path: "/uploads/audio/:id", answers: "json" }),
  /** A poem's reading as WebVTT captions, one cue per stanza (docs/product/chapbook.md). */
  readingCaptions: route({
    method: "GET",
    path: "/poetry/:slug/reading.vtt",
    answers: "file",
  }),
  /** A chapbook's files, when it is downloadable (or to the admin). */
  chapbookFile: route({
    method: "GET",
    path: "/chapbooks/:file{[a-z0-9-]+\\.(pdf|epub)}",
    answers: "file",
  }),
  stanzaCard: route({
    method: "GET",
    path: "/og/stanza/:slug/:file{[0-9A-Za-z-]+\\.png}",
    answers: "file",
  }),

  /**
   * The site as a fediverse actor (docs/decisions/045-federation-layer.md), answered by Fedify:
   * discovery documents, the actor and its collections (ActivityStreams JSON), and the inboxes,
   * which take signed activities from other servers.
   */
  webfinger: route({ method: "GET", path: "/.well-known/webfinger", answers: "json" }),
  nodeInfoLinks: route({ method: "GET", path: "/.well-known/nodeinfo", answers: "json" }),
  nodeInfo: route({ method: "GET", path: "/fediverse/nodeinfo/2.1", answers: "json" }),
  fediverseActor: route({ method: "GET", path: "/fediverse/actor/:identifier", answers: "json" }),
  fediverseOutbox: route({
    method: "GET",
    path: "/fediverse/actor/:identifier/outbox",
    answers: "json",
  }),
  fediverseFollowers: route({
    method: "GET",
    path: "/fediverse/actor/:identifier/followers",
    answers: "json",
  }),
  fediverseInbox: route({
    method: "POST",
    path: "/fediverse/actor/:identifier/inbox",
    answers: "json",
  }),
  fediverseSharedInbox: route({ method: "POST", path: "/fediverse/inbox", answers: "json" }),

  /** Full-page navigation to the sign-in page, returning where the reader was. */
  login: route({ method: "GET", path: "/api/login", answers: "redirect" }),
  logout: route({ method: "GET", path: "/api/logout", answers: "redirect" }),
  /** The Continue button on /login/verify: the only way an emailed link signs in. */
  verifySignInLink: route({
    method: "POST",
    path: "/api/auth/email-link/verify",
    answers: "redirect",
  }),
  /** The operator's printed link (CLI login-link); it is never mailed. */
  cliLogin: route({ method: "GET", path: "/api/auth/cli-login", answers: "redirect" }),
  startOidcSignIn: route({ method: "POST", path: "/api/auth/oidc/start", answers: "redirect" }),
  oidcCallback: route({
    method: "GET",
    path: "/api/auth/callback/:providerId",
    answers: "redirect",
  }),
  /** The link in the confirmation mail. */
  verifySubscription: route({ method: "GET", path: "/api/subscribe/verify", answers: "redirect" }),
  /**
   * RFC 8058 one-click unsubscribe from mail providers (JSON) and the confirm page's form
   * (a redirect); the signed link is the authority.
   */
  unsubscribe: route({ method: "POST", path: "/api/unsubscribe", answers: "json or redirect" }),
  /** The same List-Unsubscribe address opened in a browser: on to the page with its button. */
  unsubscribeInBrowser: route({ method: "GET", path: "/api/unsubscribe", answers: "redirect" }),
  /**
   * The stanza viewer's reading beacon (`navigator.sendBeacon`, a text/plain JSON body, no
   * cookie): which stanzas were on screen for 2 s, or which one was shared. Not a call readers'
   * code decodes: it answers 204, or 400/429 with a message (docs/product/insights.md).
   */
  readingBeacon: route({ method: "POST", path: "/api/insights/reading", answers: "no content" }),
  /** A digest's link: counts a click for its run and link, then on to the page; 404 if forged. */
  digestLink: route({ method: "GET", path: "/api/digest/link/:token", answers: "redirect" }),
  subscribersCsv: route({ method: "GET", path: "/api/admin/subscribers.csv", answers: "file" }),
} as const;
