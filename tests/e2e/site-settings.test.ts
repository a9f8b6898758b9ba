import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { READING_THEMES } from "../../app/lib/reading-settings.ts";
import { BOOK_SLOTS } from "../../common/book-slots.ts";
import { HOME_THEMES, POETRY_PILLARS } from "../../common/constants.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();
const WIDTHS = [375, 1280] as const;
/** A test that walks many pages at both widths, or audits in three themes, on a busy machine. */
const LONG_TEST_MS = 240_000;
const POEM = DEMO_POEMS[0]?.slug ?? "";
let admin: BrowserContext;
let portraitFile: string;

beforeAll(async () => {
  admin = await site.signedIn("poet@example.com", { admin: true });
  portraitFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ev-portrait-")), "me.png");
  await sharp({ create: { width: 400, height: 500, channels: 3, background: "#6b4f3a" } })
    .png()
    .toFile(portraitFile);
});

async function reader(width: number) {
  return site.browser.newContext({ viewport: { width, height: 900 } });
}

const texts = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) => elements.map((e) => e.textContent?.trim()));

const structuredData = (page: Page) =>
  page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? "null")));

/** axe's WCAG rules in the first reading theme, its colour rules in the others. */
async function axeViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const [index, theme] of READING_THEMES.entries()) {
    await page.evaluate((name) => {
      document.documentElement.dataset.theme = name;
    }, theme);
    const axe = new AxeBuilder({ page });
    const results = await (index === 0
      ? axe.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      : axe.withRules(["color-contrast", "link-in-text-block"])
    ).analyze();
    for (const violation of results.violations) {
      for (const node of violation.nodes) {
        found.push(`${theme} ${violation.id}: ${node.target.join(" ")}`);
      }
    }
  }
  return found;
}

describe("before the poet sets anything", () => {
  it.each(WIDTHS)(
    "every page is as it was, at %i px",
    async (width) => {
      const context = await reader(width);
      const page = await site.open(context, "/poetry");
      expect(await texts(page, 'nav[aria-label="Pillars"] a')).toEqual([...POETRY_PILLARS]);
      await page.goto(`${site.server.url}/`);
      await hydrated(page);
      expect(await texts(page, "#current-themes + ul li a > span:first-child")).toEqual([
        ...HOME_THEMES,
      ]);
      const footer = page.getByRole("contentinfo");
      expect(await footer.textContent()).toContain("© 2025 Ember Verse. All rights reserved.");
      expect(await texts(page, 'nav[aria-label="Footer"] a')).toEqual([
        "Home",
        "Poetry",
        "Daily Embers",
        "Books",
      ]);
      await footer.getByRole("link", { name: "About" }).click();
      await page.waitForURL(`${site.server.url}/about`);
      await page.getByRole("heading", { name: "About Ember Verse" }).waitFor();
      await page.goto(`${site.server.url}/books`);
      expect(await texts(page, "h2.font-serif")).toEqual(BOOK_SLOTS.map((slot) => slot.title));
      await context.close();
    },
    LONG_TEST_MS,
  );
});

describe("the poet's site settings", () => {
  it(
    "refuses a year in the future in the form, naming the field, and saves the rest",
    async () => {
      const page = await site.open(admin, "/admin");
      await page.getByRole("link", { name: "Site Settings" }).click();
      await page.getByRole("heading", { name: "Site Settings" }).waitFor();
      await hydrated(page);
      await page.getByLabel("Site title").fill("Never Saved");
      await page.getByLabel("Copyright from (year)").fill("2999");
      await page.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("The first year cannot be in the future").waitFor();
      // One wrong field does not lose the rest (docs/product/admin.md): the title is saved.
      await page.getByText("Your other changes were saved; the marked fields were not").waitFor();
      expect(await page.getByLabel("Copyright from (year)").inputValue()).toBe("2999");
      const home = await (await fetch(`${site.server.url}/`)).text();
      expect(home).toContain("Never Saved");
      expect(home).not.toContain("2999");
      await page.close();
    },
    LONG_TEST_MS,
  );

  it(
    "changes the chips, home themes, books, footer, About and JSON-LD on every page",
    async () => {
      const page = await site.open(admin, "/admin/settings");
      await page.getByLabel("Site title").fill("Salt House");
      await page.getByLabel("Tagline").fill("Small poems about the sea.");
      await page.getByLabel("Copyright from (year)").fill("2019");
      await page.getByLabel("Poet's name").fill("Rowan Ash");
      await page.getByLabel("Short bio").fill("Rowan writes by the sea.\n\nTwo books, one boat.");
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Upload image" }).click();
      await (await chooser).setFiles(portraitFile);
      await page.getByText("Image uploaded successfully").waitFor();
      await page.getByRole("img", { name: "The portrait as uploaded" }).waitFor();
      await page.getByRole("button", { name: "Add link" }).click();
      await page.getByLabel("Link 1 label").fill("Mastodon");
      await page.getByLabel("Link 1 URL").fill("https://poets.example/@rowan");
      for (const [index, tag] of ["Sacred", "Memory", "Autumn", "Winter"].entries()) {
        await page.getByLabel(`Poetry filter chips ${index + 1}`).selectOption({ label: tag });
      }
      for (const [index, tag] of ["Advent", "Spring", "Memory"].entries()) {
        await page.getByLabel(`Home's Current Themes ${index + 1}`).selectOption({ label: tag });
      }
      await page.getByLabel("Slot 2 title").fill("Oars and Ashes");
      await page.getByLabel("Hold new whispers for approval").check();
      await page.screenshot({ path: "test-results/admin-settings-1280.png", fullPage: true });
      await page.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Settings updated successfully").waitFor();
      await page.close();

      const year = new Date().getUTCFullYear();
      for (const width of WIDTHS) {
        const context = await reader(width);
        const tab = await site.open(context, "/poetry");
        expect(await texts(tab, 'nav[aria-label="Pillars"] a')).toEqual([
          "Sacred",
          "Memory",
          "Autumn",
          "Winter",
        ]);
        await tab.getByRole("link", { name: "Memory" }).first().click();
        await tab.waitForURL(/\/poetry\?tag=Memory$/);
        await tab.screenshot({ path: `test-results/settings-poetry-${width}.png` });

        await tab.goto(`${site.server.url}/`);
        await hydrated(tab);
        expect(await tab.title()).toBe("Home | Salt House");
        await tab.getByText("Small poems about the sea.").waitFor();
        expect(await texts(tab, "#current-themes + ul li a > span:first-child")).toEqual([
          "Advent",
          "Spring",
          "Memory",
        ]);
        const footer = tab.getByRole("contentinfo");
        expect(await footer.textContent()).toContain(
          `© 2019–${year} Rowan Ash. All rights reserved.`,
        );
        await tab.screenshot({ path: `test-results/settings-home-${width}.png`, fullPage: true });

        await tab.goto(`${site.server.url}/books`);
        expect((await texts(tab, "h2.font-serif"))[1]).toBe("Oars and Ashes");

        await tab.goto(`${site.server.url}/about`);
        await hydrated(tab);
        await tab.getByRole("heading", { name: "Rowan Ash" }).waitFor();
        await tab.getByText("Two books, one boat.").waitFor();
        const portrait = tab.getByRole("img", { name: "Portrait of Rowan Ash" });
        await portrait.waitFor();
        expect(await portrait.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(400);
        expect(await tab.getByRole("link", { name: "Mastodon" }).getAttribute("rel")).toBe(
          "me noopener",
        );
        expect(await structuredData(tab)).toEqual([
          expect.objectContaining({
            "@type": "Person",
            name: "Rowan Ash",
            sameAs: ["https://poets.example/@rowan"],
          }),
        ]);
        await tab.screenshot({ path: `test-results/settings-about-${width}.png`, fullPage: true });
        expect(await axeViolations(tab)).toEqual([]);

        await tab.goto(`${site.server.url}/poetry/${POEM}`);
        const [poem] = await structuredData(tab);
        expect(poem.author).toEqual(
          expect.objectContaining({ "@type": "Person", name: "Rowan Ash" }),
        );
        await context.close();
      }
    },
    LONG_TEST_MS,
  );

  it(
    "holds a reader's new whisper: the toast says so, its writer sees it marked, and it waits for the poet",
    async () => {
      const context = await site.signedIn("whisperer@example.com");
      const page = await site.open(context, `/poetry/${POEM}#s-0`);
      await page.getByRole("button", { name: "Show whispers" }).click();
      const panel = page.locator("section[aria-labelledby=whispers-heading]");
      await panel.getByRole("button", { name: "Write a whisper" }).click();
      await panel.getByRole("textbox").fill("Waiting for the poet");
      await panel.getByRole("button", { name: "Share" }).click();
      await page.getByText("Only you can see it until the poet approves it.").waitFor();
      expect(await page.getByText("Whisper shared").count()).toBeGreaterThan(0);
      // Its writer still sees it, marked as waiting (decision 057).
      const mine = panel.getByRole("listitem").filter({ hasText: "Waiting for the poet" });
      await mine.getByText("Awaiting approval").waitFor();
      await context.close();

      const moderation = await site.open(admin, "/admin");
      await moderation.getByRole("tab", { name: "Whispers" }).click();
      await moderation.getByText("Waiting for the poet").waitFor();
      await moderation.close();
    },
    LONG_TEST_MS,
  );

  it.each(WIDTHS)(
    "the settings page has no axe violations at %i px",
    async (width) => {
      const context = await site.signedIn(`poet-${width}@example.com`, {
        admin: true,
        viewport: { width, height: 900 },
      });
      const page = await site.open(context, "/admin/settings");
      await page.screenshot({ path: `test-results/admin-settings-${width}.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    },
    LONG_TEST_MS,
  );
});
