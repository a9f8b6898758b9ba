import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READING_THEMES } from "../../app/lib/reading-settings.ts";
import { tagSlug } from "../../common/slug.ts";
import { DEMO_POEMS, DEMO_TAGS } from "../../server/db/demo/content.ts";
import { DEMO_BOOK } from "../../server/db/demo/embers-and-book.ts";
import { hydrated, launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * axe (WCAG 2.2 AA rules) on every page, at phone and desktop widths, in each reading theme,
 * signed out, signed in and as an admin, with the mobile menu, the whispers panel, the reading
 * settings and each admin form open.
 *
 * A reading theme changes colours and nothing else (app.css: custom properties under
 * <html data-theme>), so each page is loaded once per width: every rule runs in the first theme,
 * then the rules that read colours run again in each other theme, switched in place. That the
 * saved theme is applied before the first paint, reading-settings.test.ts shows.
 */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
const WIDTHS = [375, 1280] as const;
const POEM = DEMO_POEMS[0]?.slug ?? "";
const READER_PAGES = [
  "/",
  "/poetry",
  `/poetry/${POEM}`,
  `/themes/${tagSlug(DEMO_TAGS[0] ?? "")}`,
  "/ember",
  "/ember/archive",
  "/books",
  `/book/${DEMO_BOOK.slug}/preview`,
  "/journal",
  "/account",
  "/guest-voices",
  "/contribute",
  "/search",
  "/about",
  "/search?q=river",
  "/search?q=zyzzyva",
  "/login",
  "/unsubscribe",
  "/subscribe/invalid",
  "/no-such-page",
];

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The violations axe finds on the page as it is now, in each reading theme, as readable lines. */
async function violations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const [index, theme] of READING_THEMES.entries()) {
    // A card's colours ease for 150 ms: axe reads them once they have settled.
    await page.evaluate(async (name) => {
      document.documentElement.dataset.theme = name;
      await Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished.catch(() => undefined)),
      );
    }, theme);
    const axe = new AxeBuilder({ page });
    const rules = index === 0 ? axe.withTags(WCAG_TAGS) : axe.withRules(COLOUR_RULES);
    const results = await rules.analyze();
    for (const violation of results.violations) {
      for (const node of violation.nodes) {
        found.push(
          `${page.url()} at ${page.viewportSize()?.width} px (${theme}) ${violation.id}: ${node.target.join(" ")} (${violation.help})`,
        );
      }
    }
  }
  return found;
}

async function contextFor(width: number, email?: string, options: { admin?: boolean } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  if (email) {
    const link = await server.cli("login-link", email, ...(options.admin ? ["--admin"] : []));
    const page = await context.newPage();
    await page.goto(link.stdout.trim());
    await page.close();
  }
  return context;
}

/** The violations on `path`, opened in `page`. */
async function auditPage(page: Page, path: string) {
  await page.goto(`${server.url}${path}`);
  await hydrated(page);
  return violations(page);
}

async function auditPages(context: BrowserContext, paths: string[]) {
  const found: string[] = [];
  const page = await context.newPage();
  for (const path of paths) found.push(...(await auditPage(page, path)));
  await page.close();
  return found;
}

// The two widths are separate tabs (each its own renderer process), audited side by side: axe's
// work is in the browser, so the two cores share it.
describe("axe on each reader page signed out, at 375 and 1280 px, in every theme", () => {
  // One page a test: nineteen pages in three themes took 47 s of a 60 s test's time on a slow
  // hour, and past it on another.
  let contexts: BrowserContext[] = [];
  let tabs: Page[] = [];
  beforeAll(async () => {
    contexts = await Promise.all(WIDTHS.map((width) => contextFor(width)));
    tabs = await Promise.all(contexts.map((context) => context.newPage()));
  });
  afterAll(() => Promise.all(contexts.map((context) => context.close())));

  it.each(READER_PAGES)("finds nothing on %s", async (path) => {
    const found = await Promise.all(tabs.map((tab) => auditPage(tab, path)));
    expect(found.flat()).toEqual([]);
  });

  it("finds nothing with the reading settings open", async () => {
    const found = await Promise.all(
      tabs.map(async (tab) => {
        await tab.goto(`${server.url}/poetry/${POEM}`);
        await hydrated(tab);
        await tab.getByText("Reading settings").click();
        await tab.getByRole("group", { name: "Theme" }).waitFor();
        return violations(tab);
      }),
    );
    expect(found.flat()).toEqual([]);
  });
});

/**
 * Each width in a context of its own, the two side by side. A test waits on the browser for many
 * audits (the admin's, about 40 s beside the other width, and 170 s on a machine under load), so
 * it has the time a busy machine needs.
 */
const SIDE_BY_SIDE_TIMEOUT_MS = 300_000;

describe("axe signed in, in every theme", () => {
  it.concurrent.each(WIDTHS)(
    "finds nothing at %i px, with the whispers panel (and on a phone the menu) open",
    async (width) => {
      const context = await contextFor(width, `reader-${width}@example.com`);
      const found = await auditPages(context, ["/", `/poetry/${POEM}`, "/journal", "/account"]);
      const page = await context.newPage();
      await page.goto(`${server.url}/poetry/${POEM}`);
      await hydrated(page);
      await page.getByRole("button", { name: "Show whispers" }).click();
      await page.getByRole("button", { name: "Hide whispers" }).waitFor();
      found.push(...(await violations(page)));
      if (width < 768) {
        await page.getByRole("button", { name: "Open menu" }).click();
        await page.getByRole("dialog").waitFor();
        found.push(...(await violations(page)));
      }
      expect(found).toEqual([]);
      await context.close();
    },
    SIDE_BY_SIDE_TIMEOUT_MS,
  );
});

describe("axe in the admin area, in every theme", () => {
  it.concurrent.each(WIDTHS)(
    "finds nothing at %i px, with each admin form open",
    async (width) => {
      const context = await contextFor(width, `poet-${width}@example.com`, { admin: true });
      const found = await auditPages(context, [
        "/admin",
        "/admin/digest",
        "/admin/submissions",
        "/admin/settings",
        "/admin/guest-voices",
        "/admin/fediverse",
      ]);
      const page = await context.newPage();
      await page.goto(`${server.url}/admin`);
      await hydrated(page);
      for (const [tab, button] of [
        ["Poems", "Add New Poem"],
        ["Embers", "Add New Ember"],
        ["Books", "Add New Book"],
        ["Tags", "Add New Tag"],
      ] as const) {
        await page.getByRole("tab", { name: tab }).click();
        await page.getByRole("button", { name: button }).click();
        await page.getByRole("button", { name: "Cancel" }).waitFor();
        found.push(...(await violations(page)));
        await page.getByRole("button", { name: "Cancel" }).click();
      }
      await page.getByRole("tab", { name: "Whispers" }).click();
      await page.getByRole("radio", { name: /^All/ }).waitFor();
      found.push(...(await violations(page)));
      expect(found).toEqual([]);
      await context.close();
    },
    SIDE_BY_SIDE_TIMEOUT_MS,
  );
});
