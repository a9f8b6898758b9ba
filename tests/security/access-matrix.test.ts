import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import { mailRuns, users } from "../../server/db/schema.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { loadPageHandler, pagePaths } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import {
  ACCESS_MATRIX,
  type AccessRule,
  bodyFor,
  expectedOutcome,
  matches,
  ROLES,
  type Role,
  ruleFor,
} from "./access-matrix.ts";
import {
  countRows,
  declaredRoutes,
  fillPath,
  isStateChanging,
  listDeclaredEndpoints,
  listEndpoints,
} from "./routes.ts";
import { createWhisper, sampleParameter, seedWorld, WORLD, type World } from "./world.ts";

/**
 * Every route, as every role, against one table of outcomes: the routes declared in
 * common/endpoints.ts and common/other-routes.ts, which are exactly the routes the app registers.
 */
describe.each(drivers)("access matrix on %s", (driver) => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    t = await createTestApp(driver);
    world = await seedWorld(t);
  });
  afterAll(() => t.close());

  let leavers = 0;
  async function sessionOf(rule: AccessRule, role: Role): Promise<string | undefined> {
    if (role === "anonymous") return undefined;
    if (rule.isAccountEnding) {
      leavers += 1;
      return signIn(t, `${role}-leaving-${leavers}@example.com`, { admin: role === "admin" });
    }
    if (!rule.isSessionEnding) return world.sessions[role];
    const email = {
      user: WORLD.userEmail,
      otherUser: WORLD.otherUserEmail,
      admin: WORLD.adminEmail,
    };
    return signIn(t, email[role], { admin: role === "admin" });
  }

  it("registers no route that is not declared, and every declared one", () => {
    const declared = new Set(listDeclaredEndpoints().map((endpoint) => endpoint.key));
    const registered = new Set(listEndpoints(t.app).map((endpoint) => endpoint.key));
    const undeclared = [...registered].filter((key) => !declared.has(key));
    expect(
      undeclared,
      `routes registered without a declaration in common/: ${undeclared.join(", ")}`,
    ).toEqual([]);
    const unregistered = [...declared].filter((key) => !registered.has(key));
    expect(unregistered, `declared routes the app does not register`).toEqual([]);
  });

  it("has a row for every registered route (or the /api/admin/* default)", () => {
    const missing = listEndpoints(t.app)
      .filter((endpoint) => !ruleFor(endpoint))
      .map((endpoint) => endpoint.key);
    expect(
      missing,
      `routes missing from tests/security/access-matrix.ts: ${missing.join(", ")}`,
    ).toEqual([]);
  });

  it("expects a declared admin route without a row to be admin-only, and knows no other", () => {
    const added = { method: "POST", path: "/api/admin/poems", key: "POST /api/admin/poems" };
    expect(ruleFor(added)?.expect).toEqual({ anonymous: 401, user: 403, admin: "not-refused" });
    const undeclared = { method: "GET", path: "/api/admin/new", key: "GET /api/admin/new" };
    expect(ruleFor(undeclared)).toBeUndefined();
    const unlisted = { method: "GET", path: "/api/new-thing", key: "GET /api/new-thing" };
    expect(ruleFor(unlisted)).toBeUndefined();
  });

  it("has no row for a route that is not declared", () => {
    const declared = new Set(Object.keys(declaredRoutes));
    const stale = Object.keys(ACCESS_MATRIX).filter((name) => !declared.has(name));
    expect(stale, `rows for routes that are not declared: ${stale.join(", ")}`).toEqual([]);
  });

  it("answers every route as the table says for anonymous, USER, another USER and ADMIN", async () => {
    const mismatches: string[] = [];
    for (const endpoint of listDeclaredEndpoints()) {
      const rule = ruleFor(endpoint);
      if (!rule) continue;
      for (const role of ROLES) {
        // An owner-only route acts on a fresh whisper of `user` each time, so one role's
        // success cannot turn the next role's answer into "not found".
        const whisperId =
          endpoint.key === `${endpoints.deleteWhisper.method} ${endpoints.deleteWhisper.path}`
            ? await createWhisper(t, world.poem.id)
            : world.whisperId;
        const path = fillPath(endpoint.path, (name) =>
          sampleParameter(endpoint.path, name, { ...world, whisperId }),
        );
        const cookie = await sessionOf(rule, role);
        const headers: Record<string, string> = { Origin: t.config.publicUrl.origin };
        if (cookie) headers.Cookie = cookie;
        const body = bodyFor(rule, role);
        if (body !== undefined) headers["Content-Type"] = "application/json";
        const before = isStateChanging(endpoint) ? await countRows(t.db) : undefined;
        const response = await t.app.request(path, {
          method: endpoint.method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const outcome = expectedOutcome(rule, role);
        const label = `${endpoint.key} as ${role}`;
        if (!matches(outcome, response.status)) {
          mismatches.push(`${label}: expected ${outcome}, got ${response.status}`);
          continue;
        }
        if (response.status === 401) {
          const text = await response.text();
          if (!text.includes("Unauthorized")) mismatches.push(`${label}: 401 without Unauthorized`);
        }
        if (before && (response.status === 401 || response.status === 403)) {
          expect(await countRows(t.db), `${label} changed the database`).toEqual(before);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("keeps one reader's journal and whispers out of another reader's reach", async () => {
    const { user, otherUser } = world.sessions;
    const saved = await api(t.app, "PUT", "/api/journal", {
      body: { poemSlug: "river", stanzaIndex: 0 },
      cookie: user,
    });
    expect(saved.status).toBe(200);

    const othersJournal = await t.app.request("/api/journal", { headers: { Cookie: otherUser } });
    const othersEntries = (await othersJournal.json()) as Array<{ stanzaIndex: unknown }>;
    expect(othersEntries.map((entry) => String(entry.stanzaIndex))).not.toContain("0");
    const othersSaved = await t.app.request("/api/poems/river/journal", {
      headers: { Cookie: otherUser },
    });
    expect(await othersSaved.json()).not.toContain("0");

    // The other reader's toggle of the same stanza adds their own entry; the owner's stays.
    await api(t.app, "POST", "/api/journal", {
      body: { poemSlug: "river", stanzaIndex: 0 },
      cookie: otherUser,
    });
    const ownersSaved = await t.app.request("/api/poems/river/journal", {
      headers: { Cookie: user },
    });
    expect(await ownersSaved.json()).toContain("0");

    const whisperId = await createWhisper(t, world.poem.id);
    const refused = await t.app.request(`/api/whispers/${whisperId}`, {
      method: "DELETE",
      headers: { Cookie: otherUser },
    });
    expect(refused.status).toBe(403);
    const whispers = await (await t.app.request("/api/poems/river/whispers/0")).json();
    expect(JSON.stringify(whispers)).toContain(`"id":${whisperId}`);
  });
});

/**
 * The admin pages: every page under the admin layout, as a document and as client-navigation
 * data, sends anonymous visitors and readers home with the door they knocked at, before any admin
 * loader runs (nothing of the admin's data in the answer); the admin gets the page.
 */
describe.each(drivers)("admin pages on %s", (driver) => {
  let t: TestApp;
  let world: World;
  let adminPages: string[];
  const SECRET_SUBJECT = "Only the poet sees this subject";

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    adminPages = pagePaths(build)
      .filter((page) => page.startsWith("/admin"))
      .map((page) => page.replace(":slug", WORLD.poemSlug));
    t = await createTestApp(driver, { pageHandler });
    world = await seedWorld(t);
    const [poet] = await t.db.select({ id: users.id }).from(users);
    await t.db.insert(mailRuns).values({
      subject: SECRET_SUBJECT,
      content: {
        featuredEmber: { text: "x", date: "2026-11-23" },
        topEchoedStanzas: [],
        newPoems: [],
      },
      createdBy: poet?.id,
      status: "sent",
    });
  }, 120_000);
  afterAll(() => t.close());

  it("finds every admin page in the build", () => {
    expect(adminPages.sort()).toEqual([
      "/admin",
      "/admin/chapbooks",
      "/admin/digest",
      "/admin/fediverse",
      "/admin/guest-voices",
      "/admin/import",
      "/admin/insights",
      `/admin/insights/poems/${WORLD.poemSlug}`,
      "/admin/settings",
      "/admin/submissions",
    ]);
  });

  it("turns non-admins away before any admin loader runs, and lets the admin in", async () => {
    for (const page of adminPages) {
      const door = page === "/admin/digest" ? "digest" : "content";
      for (const [role, cookie] of [
        ["anonymous", undefined],
        ["user", world.sessions.user],
      ] as const) {
        const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
        const label = `${page} as ${role}`;
        const document = await t.app.request(page, { headers });
        expect(document.status, label).toBe(302);
        expect(document.headers.get("location"), label).toBe(`/?admin-door=${door}`);
        const data = await t.app.request(`${page}.data`, { headers });
        expect(await data.text(), label).not.toContain(SECRET_SUBJECT);
      }
      const asAdmin = await t.app.request(page, { headers: { Cookie: world.sessions.admin } });
      expect(asAdmin.status, `${page} as admin`).toBe(200);
    }
    const digest = await t.app.request("/admin/digest", {
      headers: { Cookie: world.sessions.admin },
    });
    expect(await digest.text()).toContain(SECRET_SUBJECT);
  });
});
