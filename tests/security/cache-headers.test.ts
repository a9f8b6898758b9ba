import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.ts";
import { loadPageHandler, pagePaths } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { bodyFor, ROLES, type Role, ruleFor } from "./access-matrix.ts";
import { fillPath, listDeclaredEndpoints } from "./routes.ts";
import { sampleParameter, seedWorld, WORLD, type World } from "./world.ts";

/**
 * What every answer tells the caches between the site and the reader
 * (docs/decisions/053-what-every-answer-tells-caches.md): each says what a cache may do with it
 * (Cache-Control); an answer to a signed-in request, or one that sets a cookie, is never kept by
 * a shared cache; and an answer that changes with the session cookie or with Accept names it in
 * Vary. Walked over every declared route and every page, as anonymous, reader and admin.
 */

const ACTIVITY_ACCEPT =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

/** Whether a shared cache (a proxy, a CDN) may store an answer with this Cache-Control. */
const isSharedCacheable = (cacheControl: string) =>
  !/(?:^|,)\s*(?:private|no-store)\b/i.test(cacheControl);

const varies = (response: Response, name: string) =>
  (response.headers.get("vary") ?? "")
    .split(",")
    .some((listed) => ["*", name.toLowerCase()].includes(listed.trim().toLowerCase()));

/** A body as the next request would get it again: a page's CSP nonce is new each time. */
const comparable = (text: string) =>
  text.replace(/nonce="[^"]*"/g, "").replace(/'nonce-[^']*'/g, "");

/** The answers that hold one person's things: they say exactly `private, no-store`. */
const PERSONAL = [/^\/api\/admin\//, /^\/api\/account/, /^\/account$/, /^\/admin(\/|$)/];

interface Answer {
  label: string;
  role: Role;
  path: string;
  response: Response;
  text: string;
}

/** `isRead`: the same request again for another role, so its answers can be compared. */
function problemsOf(answers: Answer[], isRead = true): string[] {
  const problems: string[] = [];
  const anonymous = isRead ? answers.find((answer) => answer.role === "anonymous") : undefined;
  for (const { label, role, path, response, text } of answers) {
    const cacheControl = response.headers.get("cache-control");
    if (!cacheControl) {
      problems.push(`${label}: no Cache-Control`);
      continue;
    }
    const isSignedIn = role !== "anonymous";
    if (response.headers.has("set-cookie") && isSharedCacheable(cacheControl)) {
      problems.push(`${label}: sets a cookie, yet says ${cacheControl}`);
    }
    if (isSignedIn && isSharedCacheable(cacheControl) && varies(response, "cookie")) {
      problems.push(`${label}: a signed-in answer a shared cache may keep (${cacheControl})`);
    }
    if (isSignedIn && PERSONAL.some((pattern) => pattern.test(path))) {
      if (cacheControl !== "private, no-store") {
        problems.push(`${label}: a personal answer says ${cacheControl}`);
      }
    }
    // An answer that does not vary with the cookie must be the anonymous one.
    if (isSignedIn && anonymous && !varies(response, "cookie")) {
      const same =
        response.status === anonymous.response.status &&
        comparable(text) === comparable(anonymous.text);
      if (!same) problems.push(`${label}: differs from the anonymous answer without Vary: Cookie`);
    }
  }
  return problems;
}

describe.each(drivers)("what every answer tells caches on %s", (driver) => {
  let t: TestApp;
  let world: World;
  let pages: string[];
  let leavers = 0;

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler });
    world = await seedWorld(t);
    pages = pagePaths(build).map((page) =>
      fillPath(page, (name) => sampleParameter(page, name, world)),
    );
  }, 120_000);
  afterAll(() => t.close());

  const cookieOf = async (role: Role, isEnding: boolean) => {
    if (role === "anonymous") return undefined;
    if (!isEnding) return world.sessions[role];
    leavers += 1;
    return signIn(t, `${role}-cache-${leavers}@example.com`, { admin: role === "admin" });
  };

  it("says it on every declared route, as every role", async () => {
    const problems: string[] = [];
    for (const endpoint of listDeclaredEndpoints()) {
      const rule = ruleFor(endpoint);
      const path = fillPath(endpoint.path, (name) => sampleParameter(endpoint.path, name, world));
      const answers: Answer[] = [];
      for (const role of ROLES) {
        const cookie = await cookieOf(
          role,
          Boolean(rule?.isSessionEnding || rule?.isAccountEnding),
        );
        const headers: Record<string, string> = { Origin: t.config.publicUrl.origin };
        if (cookie) headers.Cookie = cookie;
        const body = rule ? bodyFor(rule, role) : undefined;
        if (body !== undefined) headers["Content-Type"] = "application/json";
        const response = await t.app.request(path, {
          method: endpoint.method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const label = `${endpoint.key} as ${role}`;
        answers.push({ label, role, path: endpoint.path, response, text: await response.text() });
      }
      // A write acts on what it is sent: only a read's answers are compared across roles.
      problems.push(...problemsOf(answers, endpoint.method === "GET"));
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("says it on every page, as every role and as a fediverse client", async () => {
    const problems: string[] = [];
    const paths = [...pages, "/search?q=river", "/unsubscribe?s=1&sig=x", "/login/verify?token=x"];
    for (const path of paths) {
      for (const accept of ["text/html", ACTIVITY_ACCEPT]) {
        const answers: Answer[] = [];
        for (const role of ["anonymous", "user", "admin"] as const) {
          const cookie = await cookieOf(role, false);
          const headers: Record<string, string> = { Accept: accept };
          if (cookie) headers.Cookie = cookie;
          const response = await t.app.request(path, { headers });
          const label = `${path} (${accept === "text/html" ? "page" : "activity"}) as ${role}`;
          answers.push({ label, role, path, response, text: await response.text() });
        }
        problems.push(...problemsOf(answers));
        // A page's header changes with the session: every page says so, read or not.
        for (const answer of answers) {
          const isPage = answer.response.headers.get("content-type")?.startsWith("text/html");
          if (isPage && !varies(answer.response, "cookie")) {
            problems.push(`${answer.label}: no Vary: Cookie`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("names Accept in Vary wherever the answer changes with it", async () => {
    const problems: string[] = [];
    const paths = [...pages, `/poetry/${WORLD.poemSlug}`, `/share/poem/${WORLD.poemSlug}?s=0`];
    for (const path of paths) {
      const page = await t.app.request(path, { headers: { Accept: "text/html" } });
      const activity = await t.app.request(path, { headers: { Accept: ACTIVITY_ACCEPT } });
      const changes =
        page.status !== activity.status ||
        page.headers.get("content-type") !== activity.headers.get("content-type");
      if (!changes) continue;
      for (const [label, response] of [
        ["page", page],
        ["activity", activity],
      ] as const) {
        if (!varies(response, "accept")) problems.push(`${path} (${label}): no Vary: Accept`);
      }
    }
    expect(problems).toEqual([]);
    // The walk saw at least one page that negotiates.
    const poem = await t.app.request(`/poetry/${WORLD.poemSlug}`, {
      headers: { Accept: ACTIVITY_ACCEPT },
    });
    expect(poem.headers.get("content-type")).toContain("activity+json");
  });
});
