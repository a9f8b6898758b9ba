import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READING_THEMES } from "../../app/lib/reading-settings.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();
let admin: BrowserContext;
let page: Page;

const TITLE = "Salt on the Sill";
const SLUG = "salt-on-the-sill";
const FIRST = "Salt on the sill\nwhere the tide left it";
const SECOND = "We swept it out\nand it came back";

/**
 * axe's findings (WCAG 2.2 AA) on the part of the page that `selector` names, as it is now, in
 * each reading theme. Only that part: this machine's axe takes tens of seconds a whole page, and
 * the rest of the admin page is the accessibility suite's.
 */
async function violations(on: Page, selector: string): Promise<string[]> {
  const found: string[] = [];
  for (const theme of READING_THEMES) {
    await on.evaluate((name) => {
      document.documentElement.dataset.theme = name;
    }, theme);
    const results = await new AxeBuilder({ page: on })
      .include(selector)
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    for (const violation of results.violations) {
      for (const node of violation.nodes) {
        found.push(`${theme} ${violation.id}: ${node.target.join(" ")} (${violation.help})`);
      }
    }
  }
  await on.evaluate(() => {
    delete document.documentElement.dataset.theme;
  });
  return found;
}

const status = async (path: string) => (await fetch(`${site.server.url}${path}`)).status;
/** The browser on this shared machine is slow: each step below may take tens of seconds. */
const STEP_TIMEOUT_MS = 180_000;
const row = () => page.getByRole("listitem").filter({ hasText: TITLE }).first();

beforeAll(async () => {
  admin = await site.signedIn("poet@example.com", { admin: true });
  page = await site.open(admin, "/admin");
});
afterAll(() => admin.close());

describe("the poet's irreversible actions, made reversible", { timeout: STEP_TIMEOUT_MS }, () => {
  it("labels the poem form's primary button with what it will do", async () => {
    await page.getByRole("button", { name: "Add New Poem" }).click();
    const form = page.getByRole("form", { name: "New Poem" });
    await form.getByRole("button", { name: "Publish now" }).waitFor();
    await form.getByRole("button", { name: "Save as draft" }).waitFor();
    await form.getByLabel("Title").fill(TITLE);
    await form.getByLabel("Stanzas").fill(`${FIRST}\n\n${SECOND}`);
    await form.getByRole("checkbox").first().check();
    await form.getByLabel("Publish at (UTC)").fill("2999-03-04T09:30");
    await form.getByRole("button", { name: /^Schedule for \w{3} 4 Mar, 09:30$/ }).waitFor();
    await form.getByRole("button", { name: "Now", exact: true }).click();
    await form.getByRole("button", { name: "Publish now" }).click();
    await page.getByText("Poem created successfully").waitFor();

    await row()
      .getByRole("button", { name: `Edit ${TITLE}` })
      .click();
    const edit = page.getByRole("form", { name: "Edit Poem" });
    await edit.getByRole("button", { name: "Update", exact: true }).waitFor();
    await edit.getByRole("button", { name: "Save as draft" }).waitFor();
    await page.screenshot({ path: "test-results/poem-form-update-1280.png", fullPage: true });
    await edit
      .getByLabel("Stanzas")
      .fill(`${FIRST}\n\n${SECOND.replace("came back", "came back by morning")}`);
    await edit.getByRole("button", { name: "Update", exact: true }).click();
    await page.getByText("Poem updated successfully").waitFor();
  });

  it("links each row to its poem and shows when it was published", async () => {
    const view = row().getByRole("link", { name: `View ${TITLE}` });
    expect(await view.getAttribute("href")).toBe(`/poetry/${SLUG}`);
    const today = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" });
    await row()
      .getByText(`Published ${today.format(new Date())}`)
      .waitFor();
  });

  it("shows what a version restore will change, stanza by stanza, and asks first", async () => {
    await row()
      .getByRole("button", { name: `Edit ${TITLE}` })
      .click();
    const edit = page.getByRole("form", { name: "Edit Poem" });
    await edit.getByRole("button", { name: /^Restore the version of / }).click();
    const dialog = page.getByRole("dialog", { name: "Restore this version?" });
    await dialog.getByRole("columnheader", { name: "Live now" }).waitFor();
    await dialog.getByRole("columnheader", { name: "This version" }).waitFor();
    const changed = dialog.locator("tr[data-change=changed]");
    expect(await changed.count()).toBe(1);
    expect(await changed.locator("td").first().innerText()).toContain("came back by morning");
    expect(await changed.locator("td").last().innerText()).toMatch(/Changed\s+We swept it out/);
    expect(await dialog.locator("tr[data-change=unchanged]").count()).toBe(1);
    expect(await violations(page, "dialog")).toEqual([]);
    await page.screenshot({ path: "test-results/version-diff-1280.png" });

    // Cancel leaves the live poem as it is.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await (await fetch(`${site.server.url}/api/poems/${SLUG}`)).text()).toContain(
      "by morning",
    );

    await edit.getByRole("button", { name: /^Restore the version of / }).click();
    await dialog.getByRole("button", { name: "Replace the live poem" }).click();
    await page.getByText("Version restored successfully").waitFor();
    expect(await (await fetch(`${site.server.url}/api/poems/${SLUG}`)).text()).not.toContain(
      "by morning",
    );
  });

  it("undoes a delete from the toast", async () => {
    await row()
      .getByRole("button", { name: `Delete ${TITLE}` })
      .click();
    const toast = page.getByRole("region", { name: "Notifications" });
    await toast.getByText("Poem deleted successfully").waitFor();
    expect(await status(`/poetry/${SLUG}`)).toBe(404);
    // The pointer on the toast holds it, so its Undo can be reached in time.
    await toast.getByText("Poem deleted successfully").hover();
    expect(await violations(page, 'section[aria-label="Notifications"]')).toEqual([]);
    await page.screenshot({ path: "test-results/undo-toast-1280.png" });
    await toast.getByRole("button", { name: "Undo" }).click();
    await page.getByText("Poem restored successfully").waitFor();
    await row()
      .getByRole("button", { name: `Delete ${TITLE}` })
      .waitFor();
    expect(await status(`/poetry/${SLUG}`)).toBe(200);
  });

  it("keeps a deleted poem in Recently deleted, restorable once the toast is gone", async () => {
    await row()
      .getByRole("button", { name: `Delete ${TITLE}` })
      .click();
    const toast = page.getByRole("region", { name: "Notifications" });
    await toast.getByText("Poem deleted successfully").waitFor();
    // The Undo lasts as long as the toast does.
    await toast.getByRole("button", { name: "Undo" }).waitFor({ state: "detached" });
    const deleted = page.getByRole("region", { name: "Recently deleted" });
    await deleted.getByText(TITLE).waitFor();
    await deleted.getByText(/^Deleted .* · removed for good /).waitFor();
    expect(await violations(page, 'section[aria-labelledby="recently-deleted-poems"]')).toEqual([]);
    await page.screenshot({ path: "test-results/recently-deleted-1280.png", fullPage: true });

    // Restored elsewhere meanwhile (another tab): a second restore says so and changes nothing.
    const [poem] = (await (
      await admin.request.get(`${site.server.url}/api/admin/poems/deleted`)
    ).json()) as { id: number }[];
    const restored = await admin.request.post(
      `${site.server.url}/api/admin/poems/${poem?.id}/restore`,
      { headers: { Origin: site.server.url }, data: {} },
    );
    expect(restored.status()).toBe(200);
    await deleted.getByRole("button", { name: `Restore ${TITLE}` }).click();
    await page.getByText("This poem was already restored").waitFor();
    expect(await status(`/poetry/${SLUG}`)).toBe(200);
  });

  it("deletes and restores a book the same way", async () => {
    await page.getByRole("tab", { name: "Books" }).click();
    await page.getByRole("button", { name: "Add New Book" }).click();
    const form = page.getByRole("form", { name: "New Book" });
    await form.getByLabel("Title").fill("Tide Ledger");
    await form.getByLabel("Blurb").fill("Accounts kept by the sea.");
    await form.getByLabel("Cover URL").fill("https://example.com/ledger.jpg");
    await form.getByLabel("Buy URL").fill("https://example.com/buy/ledger");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByText("Book created successfully").waitFor();
    await page.getByRole("button", { name: "Delete Tide Ledger" }).click();
    await page.getByText("Book deleted successfully").waitFor();
    const deleted = page.getByRole("region", { name: "Recently deleted" });
    await deleted.getByRole("button", { name: "Restore Tide Ledger" }).click();
    await page.getByText("Book restored successfully").waitFor();
    await page.getByRole("button", { name: "Delete Tide Ledger" }).waitFor();
    await page.getByRole("tab", { name: "Poems" }).click();
  });
});

describe("the admin area on a phone", { timeout: STEP_TIMEOUT_MS }, () => {
  it("shows all five tabs at 375 px, and the rest fits too", async () => {
    const phone = await site.browser.newContext({
      viewport: { width: 375, height: 667 },
      storageState: await admin.storageState(),
    });
    const small = await phone.newPage();
    await small.goto(`${site.server.url}/admin`);
    await hydrated(small);
    for (const name of ["Poems", "Embers", "Books", "Tags", "Whispers"]) {
      const box = await small.getByRole("tab", { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box?.x, name).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(375);
    }
    const tablist = small.getByRole("tablist");
    expect(await tablist.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
      true,
    );
    await small.getByRole("tab", { name: "Whispers" }).click();
    await small.getByRole("radio", { name: /^All/ }).waitFor();
    await small.getByRole("tab", { name: "Poems" }).click();
    await small.getByRole("link", { name: `View ${TITLE}` }).waitFor();
    expect(await violations(small, '[role="tablist"]')).toEqual([]);
    await small.screenshot({ path: "test-results/admin-poems-375.png", fullPage: true });

    await small.getByRole("button", { name: `Edit ${TITLE}` }).click();
    await small
      .getByRole("button", { name: /^Restore the version of / })
      .first()
      .click();
    const dialog = small.getByRole("dialog", { name: "Restore this version?" });
    await dialog.getByRole("columnheader", { name: "Live now" }).waitFor();
    expect(await violations(small, "dialog")).toEqual([]);
    await small.screenshot({ path: "test-results/version-diff-375.png" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await phone.close();
  });
});
