import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { ORIGINAL_BOOKS_PAGE } from "../../common/book-slots.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();
const VIEWPORTS = [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
];
/** A test that walks the editor, the poem's page and back, on a busy machine. */
const LONG_TEST_MS = 240_000;

const poets = new Map<number, BrowserContext>();

beforeAll(async () => {
  for (const viewport of VIEWPORTS) {
    poets.set(viewport.width, await site.signedIn("poet@example.com", { admin: true, viewport }));
  }
});

/** A new page of the poet's, signed in, at this width. */
async function poetPage(width: number, path: string): Promise<Page> {
  const context = poets.get(width);
  if (!context) throw new Error(`no poet at ${width}`);
  return site.open(context, path);
}

/** The toast shown now. */
const toastText = (page: Page) => page.getByRole("region", { name: "Notifications" });

/** docs/product/admin.md, Poems: the editor's Preview, the draft's banner, and what a save says. */
describe.each(VIEWPORTS)("the poem editor at $width×$height", ({ width }) => {
  const title = `Harbour Lights ${width}`;
  const slug = `harbour-lights-${width}`;

  it(
    "previews the unsaved poem as readers will see it, then a draft's page offers Edit and Publish",
    async () => {
      const page = await poetPage(width, "/admin");
      await page.getByRole("button", { name: "Add New Poem" }).click();
      const form = page.getByRole("form", { name: "New Poem" });
      await form.getByLabel("Title").fill(title);
      await form
        .getByLabel("Stanzas")
        .fill("The harbour keeps its lights\n    for boats that are not coming\n\nand I keep mine");
      await form.getByText("Belonging", { exact: true }).click();
      // The cover's check is its own button now: 'Preview' is the poem.
      await form.getByRole("button", { name: "Check cover" }).waitFor();

      const [preview] = await Promise.all([
        page.context().waitForEvent("page"),
        form.getByRole("button", { name: "Preview" }).click(),
      ]);
      await preview.getByText("Preview of your unsaved poem — only you can see this").waitFor();
      await preview.getByRole("heading", { level: 1, name: title }).waitFor();
      // The reader page's verse: the second line keeps its four spaces of indentation.
      const indentation = preview.locator("#s-0 span.whitespace-pre").first();
      expect(await indentation.textContent()).toBe("    ");
      await preview.screenshot({ path: `test-results/editor-preview-${width}.png` });
      await preview.close();
      // Nothing was saved: readers and the poet alike find no such poem yet.
      expect((await fetch(`${site.server.url}/poetry/${slug}`)).status).toBe(404);

      await form.getByRole("button", { name: "Save as draft" }).click();
      await toastText(page).getByText("Draft saved").waitFor();
      await page.screenshot({ path: `test-results/editor-draft-saved-${width}.png` });

      // The draft's page: the banner offers Edit (the poem's form) and Publish.
      await page.goto(`${site.server.url}/poetry/${slug}`);
      await hydrated(page);
      await page.getByText("Draft — only you can see this").waitFor();
      await page.screenshot({ path: `test-results/draft-banner-${width}.png` });
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      await page.waitForURL(/\/admin\?edit=\d+$/);
      const edit = page.getByRole("form", { name: "Edit Poem" });
      expect(await edit.getByLabel("Title").inputValue()).toBe(title);

      await page.goto(`${site.server.url}/poetry/${slug}`);
      await hydrated(page);
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.getByText("Published — readers can see this poem now").waitFor();
      expect((await fetch(`${site.server.url}/poetry/${slug}`)).status).toBe(200);
      // Its card in the collection, a typographic cover (it has no picture), keeps the indentation.
      await page.goto(`${site.server.url}/poetry`);
      await hydrated(page);
      const cover = page
        .getByRole("listitem")
        .filter({ hasText: title })
        .getByTestId("typographic-cover");
      expect(await cover.locator("span").nth(1).textContent()).toBe(
        "    for boats that are not coming",
      );
      await cover.screenshot({ path: `test-results/typographic-cover-${width}.png` });
      await page.close();
    },
    LONG_TEST_MS,
  );

  it(
    "says what each save did: Published, Updated, and Scheduled on the site's clock",
    async () => {
      const page = await poetPage(width, "/admin");
      await page.getByRole("button", { name: "Add New Poem" }).click();
      const form = page.getByRole("form", { name: "New Poem" });
      await form.getByLabel("Title").fill(`Ferry Hours ${width}`);
      await form.getByLabel("Stanzas").fill("The ferry keeps\nits one slow hour");
      await form.getByText("Belonging", { exact: true }).click();
      await form.getByRole("button", { name: "Publish now" }).click();
      await toastText(page).getByText("Published", { exact: true }).waitFor();

      const row = page.getByRole("listitem").filter({ hasText: `Ferry Hours ${width}` });
      await row.getByRole("button", { name: `Edit Ferry Hours ${width}` }).click();
      const edit = page.getByRole("form", { name: "Edit Poem" });
      await edit.getByLabel("Stanzas").fill("The ferry keeps\n  its one slow hour");
      await edit.getByRole("button", { name: "Update" }).click();
      await toastText(page).getByText("Updated", { exact: true }).waitFor();

      // Moving a line in is a change: the version before it differs where the indentation does.
      await row.getByRole("button", { name: `Edit Ferry Hours ${width}` }).click();
      await edit
        .getByRole("region", { name: "Versions" })
        .getByRole("button", { name: /^Restore the version of / })
        .first()
        .click();
      const restore = page.getByRole("dialog", { name: "Restore this version?" });
      const changed = restore.locator('tr[data-change="changed"]');
      await changed.waitFor();
      expect(await changed.locator("td").first().locator("span.whitespace-pre").textContent()).toBe(
        "  ",
      );
      await page.screenshot({ path: `test-results/editor-indent-diff-${width}.png` });
      await restore.getByRole("button", { name: "Cancel" }).click();
      await edit.getByLabel("Publish at (UTC)").fill("2030-12-07T09:00");
      await edit.getByRole("button", { name: "Schedule for Sat 7 Dec, 09:00" }).click();
      await toastText(page).getByText("Scheduled for Sat 7 Dec, 09:00").waitFor();
      await page.screenshot({ path: `test-results/editor-scheduled-${width}.png` });
      await row.getByText("Scheduled · Sat 7 Dec, 09:00").waitFor();
      await page.close();
    },
    LONG_TEST_MS,
  );
});

/** docs/product/admin.md, Site settings: the Books page's words and the poem on home. */
describe.each(VIEWPORTS)("the poet's own words at $width×$height", ({ width, height }) => {
  it(
    "edits, clears and hides the Books page's words, and readers see exactly those",
    async () => {
      const page = await poetPage(width, "/admin/settings");
      const settings = page.getByRole("form", { name: "Site Settings" });
      await settings.getByLabel("Slot 1 label").fill(`First of five (${width})`);
      await settings.getByLabel("Slot 2 pull quote").fill("");
      await settings.getByLabel("Slot 3 placeholder").fill("Autumn, perhaps");
      await settings.getByLabel("Hide slot 4 while it has no book").check();
      await settings.getByLabel("Closing sentence").fill("");
      await settings.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Settings updated successfully").waitFor();
      await settings.getByLabel("Slot 1 label").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/settings-books-${width}.png` });

      const reader = await site.browser.newContext({ viewport: { width, height } });
      const books = await site.open(reader, "/books");
      await books.getByText(`First of five (${width})`).waitFor();
      const titles = await books.locator("h2").allTextContents();
      expect(titles).not.toContain("The Weight We Carry");
      expect(titles).toContain("The Fire That Shapes Us");
      expect(await books.getByText("Autumn, perhaps").count()).toBe(2);
      const quotes = await books.locator("blockquote").allTextContents();
      expect(quotes).not.toContain(ORIGINAL_BOOKS_PAGE.slots[1]?.pullQuote);
      expect(quotes).toContain(ORIGINAL_BOOKS_PAGE.slots[0]?.pullQuote);
      expect(await books.getByText("A library of echoes").count()).toBe(0);
      await books.screenshot({ path: `test-results/books-own-words-${width}.png`, fullPage: true });

      // Each slot's original words come back with one press.
      for (const slot of [1, 2, 3]) {
        await settings.getByRole("button", { name: `Use slot ${slot}'s original words` }).click();
      }
      await settings.getByLabel("Hide slot 4 while it has no book").uncheck();
      await settings.getByLabel("Closing sentence").fill(ORIGINAL_BOOKS_PAGE.closing);
      await settings.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Settings updated successfully").waitFor();
      await books.reload();
      await books.getByText("Book 1 · Belonging").waitFor();
      expect(await books.locator("h2").count()).toBe(5);
      expect(await books.getByText("Coming Soon", { exact: true }).count()).toBe(8);
      await reader.close();
      await page.close();
    },
    LONG_TEST_MS,
  );

  it(
    "shows the pinned poem in home's first screen, with its card as the share image, and even theme cards",
    async () => {
      const page = await poetPage(width, "/admin/settings");
      const settings = page.getByRole("form", { name: "Site Settings" });
      await settings.getByLabel("Poem on home").selectOption({ label: "The Names We Carry" });
      await settings.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Settings updated successfully").waitFor();

      const reader = await site.browser.newContext({ viewport: { width, height } });
      const home = await site.open(reader, "/");
      const section = home.getByRole("region", { name: "A poem to begin with" });
      await section.getByText("The Names We Carry", { exact: true }).waitFor();
      // The poem's title and its first stanza's first line are in the first screen.
      const firstLine = section.locator("p.font-serif span.flex").first();
      const box = await firstLine.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(height);
      expect(await home.locator('meta[property="og:image"]').getAttribute("content")).toBe(
        `${site.server.url}/og/stanza/the-names-we-carry/0.png`,
      );
      expect(await home.locator('meta[name="description"]').getAttribute("content")).toBe(
        "Poems to read slowly, one stanza at a time.",
      );
      // The theme cards of a row are one height, whatever their words (a row on a desktop).
      const themeCards = await home.locator("#current-themes + ul li a").evaluateAll((cards) =>
        cards.map((card) => {
          const box = card.getBoundingClientRect();
          return { top: Math.round(box.top), height: Math.round(box.height) };
        }),
      );
      for (const { top } of themeCards) {
        const row = themeCards.filter((card) => card.top === top);
        expect(new Set(row.map((card) => card.height)).size).toBe(1);
      }
      if (width >= 768) expect(new Set(themeCards.map((card) => card.top)).size).toBe(1);
      await home.screenshot({ path: `test-results/home-pinned-${width}.png` });

      await settings.getByLabel("Poem on home").selectOption({ label: "The newest poem" });
      await settings.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Settings updated successfully").waitFor();
      await home.reload();
      await home.getByRole("region", { name: "Newest poem" }).waitFor();
      await reader.close();
      await page.close();
    },
    LONG_TEST_MS,
  );
});
