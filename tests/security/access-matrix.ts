import { type DeclaredRoutes, declaredRouteNamed, type Endpoint } from "./routes.ts";

export type Role = "anonymous" | "user" | "otherUser" | "admin";
export const ROLES: Role[] = ["anonymous", "user", "otherUser", "admin"];

/**
 * What a role should get: an exact status, "ok" for any answer below 400, or "not-refused" for
 * any answer but 401 and 403 (an admin reaching an admin route whose input the table cannot know).
 */
export type Outcome = number | "ok" | "not-refused";

export interface AccessRule {
  /**
   * The JSON body to send, valid where it matters, so refusals come from access checks; a
   * function of the role where one address per caller keeps per-email rate limits out of the way.
   */
  body?: unknown | ((role: Role) => unknown);
  /** The route ends the caller's session: each role calls it with a throwaway session. */
  isSessionEnding?: boolean;
  /**
   * The route ends every session of the account, or the account itself: each role calls it as
   * a throwaway account of its own (the seeded people stay for the routes after it).
   */
  isAccountEnding?: boolean;
  /** `otherUser` gets `user`'s outcome unless the route is owner-only and says otherwise. */
  expect: { anonymous: Outcome; user: Outcome; admin: Outcome; otherUser?: Outcome };
}

const everyone = (outcome: Outcome): AccessRule["expect"] => ({
  anonymous: outcome,
  user: outcome,
  admin: outcome,
});
const signedIn = (outcome: Outcome): AccessRule["expect"] => ({
  anonymous: 401,
  user: outcome,
  admin: outcome,
});
const adminOnly = (outcome: Outcome = "ok"): AccessRule["expect"] => ({
  anonymous: 401,
  user: 403,
  admin: outcome,
});

const validDigest = {
  featuredEmber: { text: "A small flame", date: "2026-11-23" },
  topEchoedStanzas: [],
  newPoems: [],
};

type RouteName = keyof DeclaredRoutes;
/** The declared routes under /api/admin, which have a default rule (see ruleFor). */
type AdminRouteName = {
  [Name in RouteName]: DeclaredRoutes[Name]["path"] extends `/api/admin/${string}` ? Name : never;
}[RouteName];

/**
 * Who may call what (docs/product/api.md), one row per route declared in common/endpoints.ts and
 * common/other-routes.ts, by its name there: TypeScript refuses this table when a declared route
 * other than an /api/admin/* one has no row, and the access-matrix test fails when the app
 * registers a route that is not declared.
 */
export const ACCESS_MATRIX: { [Name in Exclude<RouteName, AdminRouteName>]: AccessRule } & {
  [Name in AdminRouteName]?: AccessRule;
} = {
  storedImage: { expect: everyone(404) },
  storedAudio: { expect: everyone(404) },
  // Only the signed upload URL allows a PUT; no session does.
  uploadImage: { expect: everyone(404) },
  uploadAudio: { expect: everyone(404) },
  stanzaCard: { expect: everyone("ok") },
  // The sample poem has no timed reading, and "0.png" is no chapbook's file.
  readingCaptions: { expect: everyone(404) },
  chapbookFile: { expect: everyone(404) },
  robotsTxt: { expect: everyone("ok") },
  // The fediverse actor's documents are public; its inboxes take only signed activities.
  webfinger: { expect: everyone(400) },
  nodeInfoLinks: { expect: everyone(200) },
  nodeInfo: { expect: everyone(200) },
  fediverseActor: { expect: everyone(302) },
  fediverseOutbox: { expect: everyone(302) },
  fediverseFollowers: { expect: everyone(302) },
  fediverseInbox: { body: {}, expect: everyone(401) },
  fediverseSharedInbox: { body: {}, expect: everyone(401) },
  sitemap: { expect: everyone("ok") },
  feed: { expect: everyone("ok") },
  webManifest: { expect: everyone("ok") },
  health: { expect: everyone("ok") },
  login: { expect: everyone("ok") },
  logout: { isSessionEnding: true, expect: everyone("ok") },
  currentUser: { expect: signedIn(200) },
  requestSignInLink: {
    body: (role: Role) => ({ email: `${role}-link@example.com` }),
    expect: everyone(200),
  },
  verifySignInLink: { body: { token: "not-a-token" }, expect: everyone(302) },
  cliLogin: { expect: everyone(302) },
  // No OIDC provider is configured in tests.
  startOidcSignIn: { expect: everyone(404) },
  oidcCallback: { expect: everyone(302) },
  listPoems: { expect: everyone(200) },
  getPoem: { expect: everyone(200) },
  listTags: { expect: everyone(200) },
  getTheme: { expect: everyone(200) },
  getFeaturedEmber: { expect: everyone(200) },
  getTodaysEmber: { expect: everyone(200) },
  listEmbers: { expect: everyone(200) },
  listBooks: { expect: everyone(200) },
  search: { expect: everyone(200) },
  getBook: { expect: everyone(200) },
  submitGuestPoem: {
    body: { name: "Guest", email: "guest@example.com", poemTitle: "Title", poemText: "Text" },
    expect: everyone(201),
  },
  toggleEcho: { body: { stanzaIndex: 0 }, expect: signedIn(200) },
  listEchoCounts: { expect: everyone(200) },
  createWhisper: {
    body: { stanzaIndex: 0, body: "a reflection" },
    expect: signedIn(201),
  },
  listWhispers: { expect: everyone(200) },
  // Owner-only: each call gets a fresh whisper written by `user`.
  deleteWhisper: {
    expect: { anonymous: 401, user: 204, otherUser: 403, admin: 403 },
  },
  toggleJournalEntry: { body: { poemSlug: "river", stanzaIndex: 1 }, expect: signedIn(200) },
  addJournalEntry: { body: { poemSlug: "river", stanzaIndex: 2 }, expect: signedIn(200) },
  listJournal: { expect: signedIn(200) },
  listSavedStanzas: { expect: signedIn(200) },
  getAccount: { expect: signedIn(200) },
  updateAccount: { body: { displayName: "A Reader" }, expect: signedIn(200) },
  exportAccount: { expect: signedIn(200) },
  createAvatarUploadUrl: { body: {}, expect: signedIn(200) },
  signOutEverywhere: { isAccountEnding: true, body: {}, expect: signedIn(200) },
  deleteAccount: { isAccountEnding: true, expect: signedIn(204) },
  subscribe: {
    body: (role: Role) => ({ email: `${role}-reader@example.com` }),
    expect: everyone(200),
  },
  verifySubscription: { expect: everyone(302) },
  // The signed link is the authority; without one every caller gets 400.
  unsubscribe: { expect: everyone(400) },
  // Opened in a browser, it leads to the page that asks; that page changes nothing.
  unsubscribeInBrowser: { expect: everyone(303) },
  // An unknown poem is answered 204 and counts nothing, whoever sends it.
  readingBeacon: { body: { poem: "no-such-poem", reached: [0] }, expect: everyone(204) },
  // A token that names no digest link leads nowhere.
  digestLink: { expect: everyone(404) },
  subscribersCsv: { expect: adminOnly(200) },
  getDigestContent: { expect: adminOnly(200) },
  previewDigest: { body: validDigest, expect: adminOnly(200) },
  sendDigest: { body: { subject: "This week" }, expect: adminOnly() },
  listDigestRuns: { expect: adminOnly(200) },
  fediverseDeliveries: { expect: adminOnly(200) },
  resumeDigestRun: { expect: adminOnly(404) },
  getSiteSettings: { expect: adminOnly(200) },
  updateSiteSettings: { body: {}, expect: adminOnly(200) },
};

/**
 * The rule for an endpoint: its declared route's row, or for an unlisted /api/admin/* route the
 * admin default (anonymous 401, USER 403, ADMIN anything but 401/403), so an admin call is
 * checked before anyone writes its row. Undefined means the route is not declared, or the table
 * is missing it.
 */
export function ruleFor(endpoint: Endpoint): AccessRule | undefined {
  const name = declaredRouteNamed(endpoint.key);
  const listed = name && (ACCESS_MATRIX as Partial<Record<RouteName, AccessRule>>)[name];
  if (listed) return listed;
  if (!name) return undefined;
  if (endpoint.path.startsWith("/api/admin/")) {
    return {
      body: endpoint.method === "GET" ? undefined : {},
      expect: adminOnly("not-refused"),
    };
  }
  return undefined;
}

export function bodyFor(rule: AccessRule, role: Role): unknown {
  return typeof rule.body === "function" ? rule.body(role) : rule.body;
}

export function expectedOutcome(rule: AccessRule, role: Role): Outcome {
  return role === "otherUser" ? (rule.expect.otherUser ?? rule.expect.user) : rule.expect[role];
}

export function matches(outcome: Outcome, status: number): boolean {
  if (outcome === "ok") return status < 400;
  if (outcome === "not-refused") return status !== 401 && status !== 403;
  return status === outcome;
}
