import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { hydrated, launchBrowser } from "./browser.ts";
import { type RunningServer, startServer } from "./server.ts";

export interface BrowserSite {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A desktop-sized context signed in as `email` through the operator's login link (CLI). */
  signedIn(
    email: string,
    options?: { admin?: boolean } & BrowserContextOptions,
  ): Promise<BrowserContext>;
  /** A new page of `context` at `path` on the site, once React has hydrated it. */
  open(context: BrowserContext, path: string): Promise<Page>;
}

/**
 * The built server (`npm run build` first) and Chromium for one browser test file: started in
 * beforeAll, stopped in afterAll. `env` may be a function, for values another beforeAll makes
 * (an SMTP capture's URL): register that one first.
 */
export function setUpBrowserSite(
  env: Record<string, string> | (() => Record<string, string>) = {},
): BrowserSite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer(typeof env === "function" ? env() : env),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error("the site starts in beforeAll");
    return value;
  };
  const site: BrowserSite = {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    async signedIn(email, { admin = false, ...options } = {}) {
      const context = await site.browser.newContext({
        viewport: { width: 1280, height: 900 },
        ...options,
      });
      const link = await site.server.cli("login-link", email, ...(admin ? ["--admin"] : []));
      const page = await context.newPage();
      await page.goto(link.stdout.trim());
      await page.close();
      return context;
    },
    async open(context, path) {
      const page = await context.newPage();
      await page.goto(`${site.server.url}${path}`);
      await hydrated(page);
      return page;
    },
  };
  return site;
}
