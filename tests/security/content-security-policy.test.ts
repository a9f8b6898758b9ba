import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.ts";
import { loadPageHandler, pagePaths } from "../helpers/page-handler.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { fillPath } from "./routes.ts";
import { sampleParameter, seedWorld, type World } from "./world.ts";

/** The sources a directive allows, e.g. script-src. */
function directive(policy: string, name: string): string[] | undefined {
  const found = policy
    .split(";")
    .map((part) => part.trim().split(/\s+/))
    .find(([directiveName]) => directiveName === name);
  return found?.slice(1);
}

/** SECURITY.md, promise 3: every page carries a nonce-based script policy, fresh per request. */
describe.each(drivers)("content security policy on %s", (driver) => {
  let t: TestApp;
  let world: World;
  let pages: string[];

  beforeAll(async () => {
    const { pageHandler, build } = await loadPageHandler();
    pages = pagePaths(build);
    t = await createTestApp(driver, { pageHandler });
    world = await seedWorld(t);
  }, 120_000);
  afterAll(() => t.close());

  it("finds the site's pages in the build", () => {
    expect(pages).toEqual(expect.arrayContaining(["/", "/poetry", "/poetry/:slug", "/admin"]));
  });

  it("answers every page with a per-request nonce for scripts and no 'unsafe-inline'", async () => {
    let htmlPages = 0;
    let scripts = 0;
    for (const page of pages) {
      const url = fillPath(page, (name) => sampleParameter(page, name, world));
      for (const cookie of [undefined, world.sessions.user, world.sessions.admin]) {
        const nonces: string[] = [];
        for (let request = 0; request < 2; request++) {
          const response = await t.app.request(url, { headers: cookie ? { Cookie: cookie } : {} });
          const label = `${url} (${response.status})`;
          const policy = response.headers.get("content-security-policy") ?? "";
          const scriptSources = directive(policy, "script-src");
          expect(scriptSources, `${label}: ${policy}`).toBeDefined();
          expect(scriptSources, label).not.toContain("'unsafe-inline'");
          expect(directive(policy, "script-src-elem") ?? [], label).not.toContain(
            "'unsafe-inline'",
          );
          expect(directive(policy, "object-src"), label).toEqual(["'none'"]);
          expect(directive(policy, "frame-ancestors"), label).toEqual(["'none'"]);
          // What the poem form accepts as audioUrl plays (decision 018).
          expect(directive(policy, "media-src"), label).toEqual(["'self'", "https:"]);
          const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
          expect(nonce, `${label}: ${policy}`).toMatch(/^[A-Za-z0-9+/=_-]{16,}$/);
          nonces.push(nonce ?? "");
          if (!response.headers.get("content-type")?.includes("text/html")) continue;
          // Every script the page carries runs only by that nonce.
          const html = await response.text();
          htmlPages++;
          for (const script of html.match(/<script\b[^>]*>/g) ?? []) {
            scripts++;
            expect(script, label).toContain(`nonce="${nonce}"`);
          }
        }
        expect(nonces[0], `${url} reused its nonce`).not.toBe(nonces[1]);
      }
    }
    // Guards against a vacuous pass: pages rendered, and their hydration scripts were checked.
    expect(htmlPages).toBeGreaterThanOrEqual(pages.length);
    expect(scripts).toBeGreaterThan(htmlPages);
  });
});
