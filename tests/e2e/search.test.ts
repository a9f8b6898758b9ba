import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const poem = DEMO_POEMS.find((candidate) => candidate.slug === "the-kitchen-table");
if (!poem) throw new Error("demo poem missing");
/** A line of the poem's second stanza (index 1), as a reader remembers it. */
const LINE = "carried home like a stray";

const site = setUpBrowserSite();

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

describe("search", () => {
  it("finds a line from the header at 1280 px and opens the poem at its stanza", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/`);
    await hydrated(page);

    // '/' is text while the reader types in a field, and the search shortcut everywhere else.
    const email = page.locator("#subscribe-email");
    await email.click();
    await page.keyboard.type("a/b");
    expect(await email.inputValue()).toBe("a/b");
    await page.locator("h1").click();
    await page.keyboard.press("/");
    expect(await focusedId(page)).toBe("site-search");

    await page.keyboard.type(LINE);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/search\?q=carried/);
    await page.getByRole("heading", { level: 1, name: "Search" }).waitFor();
    expect(await page.title()).toMatch(/^Search \| /);
    const result = page.getByRole("link", { name: new RegExp(poem.title) });
    expect(await result.getAttribute("href")).toBe(`/poetry/${poem.slug}#s-1`);
    expect(await result.locator("mark").allTextContents()).toEqual([
      "carried",
      "home",
      "like",
      "stray",
    ]);
    await page.screenshot({ path: "test-results/search-1280.png", fullPage: true });

    await result.click();
    await page.waitForURL(`${site.server.url}/poetry/${poem.slug}#s-1`);
    await page.getByText(`2 of ${poem.stanzas.length}`).waitFor();
    await context.close();
  });

  it("opens the field from the search icon at 375 px", async () => {
    const context = await site.browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/poetry`);
    await hydrated(page);
    expect(await page.locator("#site-search").isVisible()).toBe(false);
    // The shortcut is for wide screens: here the field is behind the icon.
    await page.keyboard.press("/");
    expect(await focusedId(page)).not.toBe("site-search");

    await page.getByRole("button", { name: "Open search" }).click();
    expect(await focusedId(page)).toBe("site-search-small");
    await page.keyboard.type("home");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/search\?q=home/);
    for (const group of ["Poems", "Embers", "Guest Voices"]) {
      await page.getByRole("heading", { level: 2, name: group }).waitFor();
    }
    // The field stays open on the results, holding the words they are for.
    expect(await page.locator("#site-search-small").inputValue()).toBe("home");
    await page.screenshot({ path: "test-results/search-375.png", fullPage: true });

    await page.getByRole("link", { name: new RegExp(poem.title) }).click();
    await page.waitForURL(`${site.server.url}/poetry/${poem.slug}#s-1`);
    await page.getByText(`2 of ${poem.stanzas.length}`).waitFor();
    await context.close();
  });

  it("prompts for words when q is blank, and says when nothing is found", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/search?q=%20%20`);
    await page.getByText("Type a word or a line in the search field").waitFor();
    await page.goto(`${site.server.url}/search?q=zyzzyva`);
    await page.getByText('No results for "zyzzyva"').waitFor();
    await page.goto(`${site.server.url}/search?q=home`);
    await page.getByRole("heading", { level: 2, name: "Guest Voices" }).waitFor();
    await page.screenshot({ path: "test-results/search-groups-1280.png", fullPage: true });
    // Over 200 characters: the page searches the first 200 rather than refusing ('a' is a word
    // the search drops, so what remains after the cut is 'river').
    await page.goto(`${site.server.url}/search?q=river${" a".repeat(150)}`);
    await page.getByRole("heading", { level: 2, name: "Poems" }).waitFor();
    await context.close();
  });
});
