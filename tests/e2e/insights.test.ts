import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READING_THEMES } from "../../app/lib/reading-settings.ts";
import type { PoemInsights } from "../../common/schemas/insights.ts";
import { CHROMIUM_FLAGS, chromiumPath, hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

/**
 * What resonated, in a real browser (docs/product/insights.md): the stanza viewer's reading
 * report at 375 px, and the admin's insights pages audited with axe at both widths in each theme,
 * with screenshots to look at.
 */
const site = setUpBrowserSite();
/** A demo poem of five stanzas (server/db/demo/content.ts). */
const POEM = "road-to-the-far-chapel";
/** A reader's browser: headless Chromium names itself a robot, which is not counted. */
const READER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
const SHOTS = path.resolve(import.meta.dirname, "../../test-results/insights");

let poet: BrowserContext;
beforeAll(async () => {
  poet = await site.signedIn("poet@example.com", { admin: true });
  fs.mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await poet?.close();
});

async function poemInsights(): Promise<PoemInsights> {
  const response = await poet.request.get(
    `${site.server.url}/api/admin/insights/poems/${POEM}?days=7`,
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as PoemInsights;
}

describe("the reading report", () => {
  it("reports stanzas on screen for two seconds: three of five read, 1–3 reached, 4–5 not", async () => {
    const before = await poemInsights();
    // A browser of its own: a context's user agent does not reach a beacon sent as a page goes.
    const browser = await chromium.launch({
      executablePath: await chromiumPath(),
      args: [...CHROMIUM_FLAGS, `--user-agent=${READER_AGENT}`],
    });
    const reader = await browser.newContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await reader.newPage();
    await page.goto(`${site.server.url}/poetry/${POEM}`);
    await hydrated(page);
    await page.waitForTimeout(2_500);
    await page.getByRole("button", { name: "Next stanza" }).click();
    await page.waitForTimeout(2_500);
    await page.getByRole("button", { name: "Next stanza" }).click();
    await page.waitForTimeout(2_500);
    // A glance at the fourth stanza, shorter than two seconds, is not reaching it.
    await page.getByRole("button", { name: "Next stanza" }).click();
    await page.waitForTimeout(500);
    // Leaving the page sends the report (pagehide).
    await page.goto(`${site.server.url}/about`);
    const storage = await reader.storageState();
    await browser.close();

    let after = await poemInsights();
    for (let tries = 0; after.readings === before.readings && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await poemInsights();
    }
    expect(after.readings - before.readings).toBe(1);
    const reached = after.stanzas.map(
      (stanza, index) => stanza.reached - (before.stanzas[index]?.reached ?? 0),
    );
    expect(reached).toEqual([1, 1, 1, 0, 0]);
    // The visit itself was counted as a view, and no cookie or storage was added for it.
    expect(after.views - before.views).toBe(1);
    expect(storage.cookies).toEqual([]);
    expect(storage.origins.flatMap((origin) => origin.localStorage)).toEqual([]);
  }, 60_000);
});

/** The violations axe finds on the page now, in each reading theme. */
async function violations(page: Page): Promise<string[]> {
  const found: string[] = [];
  // The tables folded under the charts are audited open.
  await page.evaluate(() => {
    for (const details of document.querySelectorAll("details")) details.open = true;
  });
  for (const [index, theme] of READING_THEMES.entries()) {
    await page.evaluate((name) => {
      document.documentElement.dataset.theme = name;
    }, theme);
    const axe = new AxeBuilder({ page });
    const results = await (index === 0
      ? axe.withTags(WCAG_TAGS)
      : axe.withRules(COLOUR_RULES)
    ).analyze();
    for (const violation of results.violations) {
      for (const node of violation.nodes) {
        found.push(`${page.url()} (${theme}) ${violation.id}: ${node.target.join(" ")}`);
      }
    }
  }
  return found;
}

describe("the admin's insights pages", () => {
  for (const width of [375, 1280]) {
    it(`pass axe at ${width} px in every theme, with a chart image and its table`, async () => {
      await poet.setExtraHTTPHeaders({});
      const page = await poet.newPage();
      await page.setViewportSize({ width, height: 900 });
      for (const [name, address] of [
        ["summary", "/admin/insights"],
        ["poem", `/admin/insights/poems/${POEM}`],
      ] as const) {
        await page.goto(`${site.server.url}${address}`);
        await hydrated(page);
        const chart = page.getByRole("img", { name: /Visitors and views per day|Reading curve/ });
        await expect(chart.count()).resolves.toBe(1);
        expect(await violations(page)).toEqual([]);
        for (const theme of ["light", "dark"] as const) {
          await page.evaluate((chosen) => {
            document.documentElement.dataset.theme = chosen;
            for (const details of document.querySelectorAll("details")) details.open = false;
          }, theme);
          await page.screenshot({
            path: path.join(SHOTS, `${name}-${width}-${theme}.png`),
            fullPage: true,
          });
        }
        // Nothing overflows the phone's width.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await page.close();
    }, 120_000);
  }

  it("audits /privacy with axe at both widths in every theme", async () => {
    const reader = await site.browser.newContext();
    for (const width of [375, 1280]) {
      const page = await reader.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${site.server.url}/privacy`);
      await hydrated(page);
      expect(await violations(page)).toEqual([]);
      await page.close();
    }
    await reader.close();
  }, 60_000);

  it("links Insights beside Digest Admin and /privacy from the footer", async () => {
    const page = await site.open(poet, "/admin");
    const links = await page
      .getByRole("link", { name: /^(Digest Admin|Insights)$/ })
      .allTextContents();
    expect(links).toEqual(["Digest Admin", "Insights"]);
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy" }).click();
    await page.waitForURL(/\/privacy$/);
    await page.getByRole("heading", { level: 1, name: "Privacy" }).waitFor();
    expect(await page.textContent("main")).toContain("Sec-GPC");
    await page.close();
  });
});
