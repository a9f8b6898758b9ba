import type { Endpoint } from "./routes.ts";

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

/**
 * Who may call what (SPEC.md §6), one row per endpoint the app registers. The access-matrix test
 * fails on any registered endpoint missing here, except /api/admin/* ones (see ruleFor).
 */
export const ACCESS_MATRIX: Record<string, AccessRule> = {
  "GET /objects/images/:name{[A-Za-z0-9_.-]+}": { expect: everyone(404) },
  "GET /objects/audio/:id": { expect: everyone(404) },
  // Only the signed upload URL allows a PUT; no session does.
  "PUT /uploads/images/:id": { expect: everyone(404) },
  "PUT /uploads/audio/:id": { expect: everyone(404) },
  "GET /og/stanza/:slug/:file{[0-9A-Za-z-]+\\.png}": { expect: everyone("ok") },
  "GET /robots.txt": { expect: everyone("ok") },
  "GET /sitemap.xml": { expect: everyone("ok") },
  "GET /feed.xml": { expect: everyone("ok") },
  "GET /api/health": { expect: everyone("ok") },
  "GET /api/login": { expect: everyone("ok") },
  "GET /api/logout": { isSessionEnding: true, expect: everyone("ok") },
  "GET /api/auth/user": { expect: signedIn(200) },
  "POST /api/auth/email-link": {
    body: (role: Role) => ({ email: `${role}-link@example.com` }),
    expect: everyone(200),
  },
  "POST /api/auth/email-link/verify": { body: { token: "not-a-token" }, expect: everyone(302) },
  "GET /api/auth/cli-login": { expect: everyone(302) },
  // No OIDC provider is configured in tests.
  "POST /api/auth/oidc/start": { expect: everyone(404) },
  "GET /api/auth/callback/:providerId": { expect: everyone(302) },
  "GET /api/poems": { expect: everyone(200) },
  "GET /api/poems/:slug": { expect: everyone(200) },
  "GET /api/tags": { expect: everyone(200) },
  "GET /api/themes/:slug": { expect: everyone(200) },
  "GET /api/embers/featured": { expect: everyone(200) },
  "GET /api/ember/today": { expect: everyone(200) },
  "GET /api/embers": { expect: everyone(200) },
  "GET /api/books": { expect: everyone(200) },
  "GET /api/search": { expect: everyone(200) },
  "GET /api/books/:slug": { expect: everyone(200) },
  "POST /api/guest-submission": {
    body: { name: "Guest", email: "guest@example.com", poemTitle: "Title", poemText: "Text" },
    expect: everyone(201),
  },
  "POST /api/poems/:slug/echo": { body: { stanzaIndex: 0 }, expect: signedIn(200) },
  "GET /api/poems/:slug/echos": { expect: everyone(200) },
  "POST /api/poems/:slug/whispers": {
    body: { stanzaIndex: 0, body: "a reflection" },
    expect: signedIn(201),
  },
  "GET /api/poems/:slug/whispers/:stanzaIndex": { expect: everyone(200) },
  // Owner-only: each call gets a fresh whisper written by `user`.
  "DELETE /api/whispers/:id": {
    expect: { anonymous: 401, user: 204, otherUser: 403, admin: 403 },
  },
  "POST /api/journal": { body: { poemSlug: "river", stanzaIndex: 1 }, expect: signedIn(200) },
  "PUT /api/journal": { body: { poemSlug: "river", stanzaIndex: 2 }, expect: signedIn(200) },
  "GET /api/journal": { expect: signedIn(200) },
  "GET /api/poems/:slug/journal": { expect: signedIn(200) },
  "GET /api/account": { expect: signedIn(200) },
  "PUT /api/account": { body: { displayName: "A Reader" }, expect: signedIn(200) },
  "GET /api/account/export": { expect: signedIn(200) },
  "POST /api/account/avatar/upload-url": { body: {}, expect: signedIn(200) },
  "POST /api/account/sign-out-everywhere": {
    isAccountEnding: true,
    body: {},
    expect: signedIn(200),
  },
  "DELETE /api/account": { isAccountEnding: true, expect: signedIn(204) },
  "POST /api/subscribe": {
    body: (role: Role) => ({ email: `${role}-reader@example.com` }),
    expect: everyone(200),
  },
  "GET /api/subscribe/verify": { expect: everyone(302) },
  // The signed link is the authority; without one every caller gets 400.
  "POST /api/unsubscribe": { expect: everyone(400) },
  // Opened in a browser, it leads to the page that asks; that page changes nothing.
  "GET /api/unsubscribe": { expect: everyone(303) },
  "GET /api/admin/subscribers.csv": { expect: adminOnly(200) },
  "GET /api/admin/digest/content": { expect: adminOnly(200) },
  "POST /api/admin/digest/preview": { body: validDigest, expect: adminOnly(200) },
  "POST /api/admin/digest/send": { body: { subject: "This week" }, expect: adminOnly() },
  "GET /api/admin/digest/runs": { expect: adminOnly(200) },
  "POST /api/admin/digest/runs/:id/resume": { expect: adminOnly(404) },
  "GET /api/admin/settings": { expect: adminOnly(200) },
  "PUT /api/admin/settings": { body: {}, expect: adminOnly(200) },
};

/**
 * The rule for an endpoint: its row, or for an unlisted /api/admin/* route the admin default
 * (anonymous 401, USER 403, ADMIN anything but 401/403), so admin routes added on other branches
 * are checked before anyone lists them. Undefined means the table is missing the endpoint.
 */
export function ruleFor(endpoint: Endpoint): AccessRule | undefined {
  const listed = ACCESS_MATRIX[endpoint.key];
  if (listed) return listed;
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
