import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();

/**
 * Where an element is against the part of the viewport the sticky header leaves free: 'clear'
 * when it is wholly between the header's bottom and the viewport's bottom (to within a pixel),
 * and nothing else is drawn over its first line.
 */
async function placeOf(page: Page, selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      const headerBottom =
        document.querySelector("body > header")?.getBoundingClientRect().bottom ?? 0;
      const isClear =
        box.top > headerBottom - 1 && box.bottom < window.innerHeight + 1 && box.height > 0;
      const onTop = document.elementFromPoint(box.left + 4, box.top + Math.min(box.height / 2, 12));
      const isCovered = onTop !== null && !element.contains(onTop) && !onTop.contains(element);
      const where = `${Math.round(box.top)}–${Math.round(box.bottom)} of ${window.innerHeight}, header ${Math.round(headerBottom)}`;
      return `${isClear && !isCovered ? "clear" : isCovered ? "covered" : "outside"} (${where})`;
    });
}

/** The stanza, its poem's context line (title and poet) and its counter, all in the first screen. */
async function expectStanzaInFirstScreen(page: Page, index: number, title: string) {
  await page.getByText(new RegExp(`^${index + 1} of \\d+$`)).waitFor();
  // Let any late scroll (the router's, the browser's) happen before measuring.
  await page.waitForTimeout(300);
  expect(await placeOf(page, `#s-${index}`), "the stanza").toMatch(/^clear/);
  expect(await placeOf(page, `text=/^${index + 1} of \\d+$/`), "the counter").toMatch(/^clear/);
  const context = page.locator(".stanza-context");
  expect(await context.getByRole("link", { name: title }).getAttribute("href")).toMatch(
    /^\/poetry\/[a-z-]+$/,
  );
  expect(await placeOf(page, ".stanza-context"), "the poem's title").toMatch(/^clear/);
}

/** docs/product/reading.md, Opened at a stanza: every link to a stanza shows it first. */
describe.each([
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
])("a stanza link at $width×$height", (viewport) => {
  it.each([
    { slug: "the-kitchen-table", title: "The Kitchen Table", index: 0 },
    { slug: "the-names-we-carry", title: "The Names We Carry", index: 3 },
  ])(
    "opens the search result at stanza $index with it in the first screen, by click and by reload",
    async ({ slug, title, index }) => {
      const context = await site.browser.newContext({ viewport });
      const page = await site.open(context, "/search?q=table");
      // The results page is scrolled a little, as a reader's would be.
      await page.evaluate(() => window.scrollTo(0, 120));
      await page.locator(`a[href="/poetry/${slug}#s-${index}"]`).click();
      await page.waitForURL(new RegExp(`/poetry/${slug}#s-${index}$`));
      await expectStanzaInFirstScreen(page, index, title);
      await page.screenshot({ path: `test-results/stanza-link-${slug}-${viewport.width}.png` });
      await page.reload();
      await hydrated(page);
      await expectStanzaInFirstScreen(page, index, title);
      await context.close();
    },
  );

  it("names the poem and its poet above the stanza, links to the poem's start, and keeps the plain page's order", async () => {
    const context = await site.browser.newContext({ viewport });
    const page = await site.open(context, "/poetry/the-kitchen-table#s-2");
    const line = page.locator(".stanza-context");
    expect(await line.textContent()).toBe("The Kitchen Table · Ember Verse");
    // Below the stanza, the page reads as a poem opened at its start: back link, title, settings.
    const order = await page.evaluate(() =>
      ["article a[href='/poetry']", "h1", "summary", "#s-2"].map(
        (selector) => document.querySelector(selector)?.getBoundingClientRect().top ?? -1,
      ),
    );
    const [back = 0, heading = 0, settings = 0, stanza = 0] = order;
    expect(stanza).toBeLessThan(back);
    expect(back).toBeLessThan(heading);
    expect(heading).toBeLessThan(settings);
    await line.getByRole("link", { name: "The Kitchen Table" }).click();
    await page.waitForURL(/\/poetry\/the-kitchen-table$/);
    await page.getByText(/^1 of \d+$/).waitFor();
    expect(await line.isVisible()).toBe(false);
    expect(await placeOf(page, "h1")).toMatch(/^clear/);
    expect(await page.locator("h1").textContent()).toBe("The Kitchen Table");
    await context.close();
  });

  it.each(["/poetry/the-kitchen-table#s-2", "/poetry/the-kitchen-table"])(
    "opens Reading settings on %s without moving the page",
    async (path) => {
      const context = await site.browser.newContext({ viewport });
      const page = await site.open(context, path);
      // The reader scrolls to the settings (on a page led by its stanza they are below it).
      await page.getByText("Reading settings").scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      const where = () =>
        page.evaluate(() => ({
          scrollY: window.scrollY,
          stanza: Math.round(
            document.querySelector("ol > li:not(.stanza-inactive)")?.getBoundingClientRect().top ??
              -1,
          ),
        }));
      const before = await where();
      await page.getByText("Reading settings").click();
      await page.getByRole("radio", { name: "Sepia" }).waitFor();
      expect(await where()).toEqual(before);
      await context.close();
    },
  );
});

describe("the stanza actions and title bar on a phone", () => {
  it("sets the seven actions in two even rows and shows the title bar only over what follows the stanza", async () => {
    const context = await site.browser.newContext({ viewport: { width: 375, height: 667 } });
    const page = await site.open(context, "/poetry/the-names-we-carry");
    const rows = await page
      .getByRole("toolbar", { name: "Stanza actions" })
      .locator(":scope > button")
      .evaluateAll((buttons) => {
        const perRow = new Map<number, number>();
        for (const button of buttons) {
          const top = Math.round(button.getBoundingClientRect().top);
          perRow.set(top, (perRow.get(top) ?? 0) + 1);
        }
        return [...perRow.values()];
      });
    expect(rows).toEqual([4, 3]);
    // In the first screen the title shows once: the bar is not drawn.
    const bar = page.locator("p", { hasText: /^The Names We Carry$/ });
    expect(await bar.isVisible()).toBe(false);
    const card = page.locator('[aria-roledescription="stanza viewer"]');
    for (let y = 0; y <= 900; y += 60) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(100);
      if (!(await bar.isVisible())) continue;
      const barBox = await bar.boundingBox();
      const cardBox = await card.boundingBox();
      // Shown, the bar is wholly below the card's bottom edge: it covers no line of verse.
      expect(cardBox && barBox && cardBox.y + cardBox.height <= barBox.y + 1, `at ${y}`).toBe(true);
    }
    await page.evaluate(() => window.scrollTo(0, 700));
    await page.waitForTimeout(200);
    expect(await bar.isVisible()).toBe(true);
    await context.close();
  });
});

/** docs/decisions/057-a-stanza-link-and-a-held-whisper.md, in the browser: the writer, another reader, the poet. */
describe.each([
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
])("a held whisper at $width×$height", (viewport) => {
  it("stays with its writer, marked, hides from another reader, and waits in the admin's tab", async () => {
    const admin = await site.signedIn("poet@example.com", { admin: true, viewport });
    const hold = await admin.request.put(`${site.server.url}/api/admin/settings`, {
      data: { holdWhispers: true },
      headers: { origin: site.server.url },
    });
    expect(hold.status()).toBe(200);
    const text = `Held at ${viewport.width}`;
    const writer = await site.signedIn(`writer-${viewport.width}@example.com`, { viewport });
    const page = await site.open(writer, "/poetry/the-kitchen-table#s-1");
    await page.getByRole("button", { name: "Show whispers" }).click();
    const panel = page.locator("section[aria-labelledby=whispers-heading]");
    await panel.getByRole("button", { name: "Write a whisper" }).click();
    await panel.getByLabel("Your whisper").fill(text);
    await panel.getByRole("button", { name: "Share", exact: true }).click();
    const mine = panel.getByRole("listitem").filter({ hasText: text });
    await mine.getByText("Awaiting approval").waitFor();
    await page.reload();
    await hydrated(page);
    await page.getByRole("button", { name: "Show whispers" }).click();
    await mine.getByText("Awaiting approval").waitFor();
    expect(await page.getByText("No whispers yet").count()).toBe(0);
    await page.screenshot({ path: `test-results/held-whisper-writer-${viewport.width}.png` });

    const other = await site.signedIn(`other-${viewport.width}@example.com`, { viewport });
    const otherPage = await site.open(other, "/poetry/the-kitchen-table#s-1");
    await otherPage.getByRole("button", { name: "Show whispers" }).click();
    await otherPage.getByText("No whispers yet. Be the first to leave one.").waitFor();
    expect(await otherPage.getByText(text).count()).toBe(0);

    const adminPage = await site.open(admin, "/admin");
    await adminPage.getByText(/whispers? (is|are) awaiting your approval/).waitFor();
    await adminPage.getByRole("tab", { name: /^Whispers \(\d+\)$/ }).click();
    await adminPage.getByText(/^Awaiting approval \(\d+\)$/).click();
    const row = adminPage.getByRole("listitem").filter({ hasText: text });
    await row.getByText("Awaiting approval").waitFor();
    await adminPage.screenshot({ path: `test-results/held-whisper-admin-${viewport.width}.png` });
    await row.getByRole("button", { name: "Hide" }).click();
    await adminPage.getByText(/^Hidden \(\d+\)$/).click();
    await adminPage.getByRole("listitem").filter({ hasText: text }).getByText("Hidden").waitFor();
    await Promise.all([admin.close(), writer.close(), other.close()]);
  });
});
