import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READING_THEMES, type ReadingTheme } from "../../app/lib/reading-settings.ts";
import { tagSlug } from "../../common/slug.ts";
import { DEMO_BOOK, DEMO_POEMS, DEMO_TAGS } from "../../server/db/demo/content.ts";
import { hydrated, launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * axe (WCAG 2.2 AA rules) on every page, at phone and desktop widths, in each reading theme,
 * signed out, signed in and as an admin, with the mobile menu, the whispers panel, the reading
 * settings and each admin form open.
 */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const WIDTHS = [375, 1280] as const;
const SETTINGS = READING_THEMES.flatMap((theme) => WIDTHS.map((width) => ({ theme, width })));
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
  "/guest-voices",
  "/contribute",
  "/search",
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

/** The violations axe finds on the page as it is now, as readable lines. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${page.url()} ${violation.id}: ${node.target.join(" ")} (${violation.help})`,
    ),
  );
}

async function contextFor(
  { width, theme }: { width: number; theme: ReadingTheme },
  email?: string,
  options: { admin?: boolean } = {},
) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  // Saved as a reader's choice would be, so the root's script applies it before the first paint.
  await context.addInitScript(
    (saved) => localStorage.setItem("emberReading", saved),
    JSON.stringify({ size: "default", theme }),
  );
  if (email) {
    const link = await server.cli("login-link", email, ...(options.admin ? ["--admin"] : []));
    const page = await context.newPage();
    await page.goto(link.stdout.trim());
    await page.close();
  }
  return context;
}

async function auditPages(context: BrowserContext, paths: string[]) {
  const found: string[] = [];
  const page = await context.newPage();
  for (const path of paths) {
    await page.goto(`${server.url}${path}`);
    await hydrated(page);
    found.push(...(await violations(page)));
  }
  await page.close();
  return found;
}

describe.each(SETTINGS)("axe at $width px, $theme theme", (setting) => {
  const { width } = setting;
  it("finds nothing on any reader page, signed out, and with the reading settings open", async () => {
    const context = await contextFor(setting);
    const found = await auditPages(context, READER_PAGES);
    const page = await context.newPage();
    await page.goto(`${server.url}/poetry/${POEM}`);
    await hydrated(page);
    await page.getByText("Reading settings").click();
    await page.getByRole("group", { name: "Theme" }).waitFor();
    found.push(...(await violations(page)));
    expect(found).toEqual([]);
    await context.close();
  });

  it("finds nothing signed in, with the whispers panel (and at 375 px the menu) open", async () => {
    const context = await contextFor(setting, `reader-${width}@example.com`);
    const found = await auditPages(context, ["/", `/poetry/${POEM}`, "/journal"]);
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
  });

  it("finds nothing in the admin area, with each admin form open", async () => {
    const context = await contextFor(setting, `poet-${width}@example.com`, { admin: true });
    const found = await auditPages(context, ["/admin", "/admin/digest", "/admin/submissions"]);
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
  });
});
