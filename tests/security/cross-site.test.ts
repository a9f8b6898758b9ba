import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscriptions } from "../../server/db/schema.ts";
import { drivers } from "../helpers/database.ts";
import { createSubscribers } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { bodyFor, ruleFor } from "./access-matrix.ts";
import { countRows, fillPath, isStateChanging, listEndpoints, snapshotRows } from "./routes.ts";
import { sampleParameter, seedWorld, type World } from "./world.ts";

/**
 * Authorised by a signed token in their URL, not by a session, so another site's page changes
 * nothing by calling them: the RFC 8058 one-click unsubscribe (mail providers post it from their
 * own sites) and the signed, single-use upload URLs (tests/integration/images.test.ts and
 * audio.test.ts).
 */
const SIGNED_URL_ROUTES = new Set([
  "POST /api/unsubscribe",
  "PUT /uploads/images/:id",
  "PUT /uploads/audio/:id",
]);

/**
 * Posted by other servers, never by a browser: a fediverse inbox takes an activity only with its
 * sender's HTTP signature, which no page on another site can make, and answers any other request
 * 401 with nothing stored (docs/decisions/045-federation-layer.md; tests/integration/
 * fediverse-actor.test.ts and fediverse-inbox.test.ts). Checked below as such.
 */
const SERVER_TO_SERVER_ROUTES = new Set([
  "POST /fediverse/inbox",
  "POST /fediverse/actor/:identifier/inbox",
]);

/**
 * docs/product/accounts.md: the only GETs that may change state, each single-purpose and harmless
 * to repeat.
 */
const STATE_CHANGING_GETS = new Set([
  "GET /api/logout",
  "GET /api/subscribe/verify",
  "GET /api/auth/cli-login",
]);

/** Headers a browser sends on a request another site started. */
const CROSS_SITE_HEADERS: Record<string, Record<string, string>> = {
  "a foreign Origin": { Origin: "https://evil.example" },
  "a look-alike Origin": { Origin: "http://localhost:3000.evil.example" },
  "Origin null (sandboxed frame, data: URL)": { Origin: "null" },
  "Sec-Fetch-Site cross-site": { "Sec-Fetch-Site": "cross-site" },
  "Sec-Fetch-Site same-site (a sibling subdomain)": { "Sec-Fetch-Site": "same-site" },
};

/** SECURITY.md, promise 2: cross-site requests, state changes on GET, session cookie attributes. */
describe.each(drivers)("cross-site requests on %s", (driver) => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    t = await createTestApp(driver);
    world = await seedWorld(t);
  });
  afterAll(() => t.close());

  const pathOf = (path: string) => fillPath(path, (name) => sampleParameter(path, name, world));

  it("refuses every state-changing route (403) when another site starts the request", async () => {
    const endpoints = listEndpoints(t.app).filter(
      (endpoint) =>
        isStateChanging(endpoint) &&
        !SIGNED_URL_ROUTES.has(endpoint.key) &&
        !SERVER_TO_SERVER_ROUTES.has(endpoint.key),
    );
    expect(endpoints.length).toBeGreaterThan(5);
    const before = await snapshotRows(t.db);
    const mismatches: string[] = [];
    for (const endpoint of endpoints) {
      const rule = ruleFor(endpoint);
      for (const [name, crossSite] of Object.entries(CROSS_SITE_HEADERS)) {
        for (const role of ["anonymous", "admin"] as const) {
          const body = rule ? bodyFor(rule, role) : {};
          const response = await t.app.request(pathOf(endpoint.path), {
            method: endpoint.method,
            headers: {
              ...crossSite,
              "Content-Type": "application/json",
              ...(role === "admin" ? { Cookie: world.sessions.admin } : {}),
            },
            body: JSON.stringify(body ?? {}),
          });
          if (response.status !== 403) {
            mismatches.push(`${endpoint.key} with ${name} as ${role}: ${response.status}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(await snapshotRows(t.db)).toEqual(before);
  });

  it("accepts the one-click unsubscribe from a mail provider's site (RFC 8058)", async () => {
    const [subscriber] = await createSubscribers(t.db, ["one-click@example.com"]);
    if (!subscriber) throw new Error("no subscriber");
    const link = t.services.subscriptions.unsubscribeUrl(subscriber.id);
    const response = await t.app.request(`/api/unsubscribe${link.search}`, {
      method: "POST",
      headers: {
        Origin: "https://mail.example",
        "Sec-Fetch-Site": "cross-site",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriber.id));
    expect(row?.unsubscribed).toBe(true);
  });

  it("answers an unsigned post to a fediverse inbox 401 from any site, storing nothing", async () => {
    const inboxes = listEndpoints(t.app).filter((endpoint) =>
      SERVER_TO_SERVER_ROUTES.has(endpoint.key),
    );
    expect(inboxes.map((endpoint) => endpoint.key).sort()).toEqual(
      [...SERVER_TO_SERVER_ROUTES].sort(),
    );
    const before = await snapshotRows(t.db);
    for (const inbox of inboxes) {
      for (const crossSite of Object.values(CROSS_SITE_HEADERS)) {
        const response = await t.app.request(
          fillPath(inbox.path, () => "poet"),
          {
            method: "POST",
            headers: { ...crossSite, "Content-Type": "application/activity+json" },
            body: JSON.stringify({
              "@context": "https://www.w3.org/ns/activitystreams",
              type: "Follow",
              actor: "https://evil.example/users/mallory",
              object: "http://localhost:3000/fediverse/actor/poet",
            }),
          },
        );
        expect(response.status, inbox.key).toBe(401);
      }
    }
    expect(await snapshotRows(t.db)).toEqual(before);
  });

  it("changes no table's row count on any GET but the three exceptions", async () => {
    const gets = listEndpoints(t.app).filter(
      (endpoint) => endpoint.method === "GET" && !STATE_CHANGING_GETS.has(endpoint.key),
    );
    const changed: string[] = [];
    for (const endpoint of gets) {
      for (const cookie of [undefined, world.sessions.user, world.sessions.admin]) {
        const before = await countRows(t.db);
        await t.app.request(pathOf(endpoint.path), { headers: cookie ? { Cookie: cookie } : {} });
        const after = await countRows(t.db);
        for (const table of Object.keys(before)) {
          if (after[table] !== before[table]) changed.push(`${endpoint.key} changed ${table}`);
        }
      }
    }
    expect(changed).toEqual([]);
  });

  it("sets session cookies HttpOnly and SameSite=Lax, without Secure on plain http", async () => {
    const cookies = await signInCookies(t);
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).not.toMatch(/;\s*Secure/i);
    }
  });

  it("marks session cookies Secure under an https PUBLIC_URL", async () => {
    const https = await createTestApp(driver, { env: { PUBLIC_URL: "https://poems.example" } });
    try {
      const cookies = await signInCookies(https);
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/;\s*HttpOnly/i);
        expect(cookie).toMatch(/;\s*SameSite=Lax/i);
        expect(cookie).toMatch(/;\s*Secure/i);
      }
    } finally {
      await https.close();
    }
  });
});

/** The session cookies a sign-in by the operator's link sets. */
async function signInCookies(t: TestApp): Promise<string[]> {
  const link = new URL(
    await t.services.accounts.createLoginLink("cookie@example.com", { admin: false }),
  );
  const response = await t.app.request(link.pathname + link.search);
  return response.headers.getSetCookie().filter((cookie) => cookie.includes("session"));
}
