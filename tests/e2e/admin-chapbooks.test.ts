import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOK_SLOTS } from "../../common/book-slots.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { hydrated, launchBrowser, openAdminAsPoet } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * The poet's chapbooks page (docs/product/chapbook.md): a chapbook started from a book slot, its
 * poems prefilled from the slot's theme, with an uploaded cover, made in the background and
 * downloaded. Its PDF and EPUB are kept in test-results/ to be looked at page by page.
 */
const SLOT = BOOK_SLOTS[0];
if (!SLOT) throw new Error("no book slots");
const SLOT_POEMS = DEMO_POEMS.filter((poem) => poem.tags.includes(SLOT.theme));

let server: RunningServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;
let coverFile: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ admin, page } = await openAdminAsPoet(browser, server));
  coverFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ev-cover-")), "cover.png");
  fs.writeFileSync(
    coverFile,
    await sharp({ create: { width: 800, height: 1200, channels: 3, background: "#3b6e8f" } })
      .png()
      .toBuffer(),
  );
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
  await server?.stop();
});

describe("the chapbooks page", () => {
  it("starts a chapbook from a book slot with an uploaded cover, makes it, and downloads its PDF", async () => {
    await page.goto(`${server.url}/admin/chapbooks`);
    await hydrated(page);
    await page.getByRole("button", { name: "New chapbook" }).click();
    await page
      .getByLabel("Start from a book slot or a theme")
      .selectOption({ label: `${SLOT.title} (${SLOT.theme})` });
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(SLOT.title);
    const chosen = page.getByRole("list", { name: "Poems in the chapbook" }).getByRole("listitem");
    expect(await chosen.count()).toBe(SLOT_POEMS.length);

    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Upload image" }).click();
    await (await chooser).setFiles(coverFile);
    await page.getByRole("img", { name: "The chapbook's cover as uploaded" }).waitFor();
    await page.getByLabel("Readers may download it").check();
    await page.screenshot({ path: "test-results/admin-chapbook-form-1280.png", fullPage: true });
    await page.setViewportSize({ width: 375, height: 667 });
    await page.screenshot({ path: "test-results/admin-chapbook-form-375.png", fullPage: true });
    const formAudit = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(formAudit.violations.map((violation) => violation.id)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Chapbook created successfully").waitFor();
    const card = page.getByRole("article", { name: SLOT.title });
    // Made in the background; the page looks again every 2 s while it is.
    await card.getByText("Ready").waitFor({ timeout: 60_000 });
    await page.screenshot({ path: "test-results/admin-chapbooks-1280.png", fullPage: true });
    await page.setViewportSize({ width: 375, height: 667 });
    await page.screenshot({ path: "test-results/admin-chapbooks-375.png", fullPage: true });
    const listAudit = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(listAudit.violations.map((violation) => violation.id)).toEqual([]);

    const href = await card.getByRole("link", { name: "Download PDF" }).getAttribute("href");
    const pdf = await fetch(`${server.url}${href}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    fs.writeFileSync("test-results/admin-chapbook.pdf", Buffer.from(await pdf.arrayBuffer()));
    const epubHref = await card.getByRole("link", { name: "Download EPUB" }).getAttribute("href");
    const epub = await fetch(`${server.url}${epubHref}`);
    expect(epub.status).toBe(200);
    expect(epub.headers.get("content-type")).toBe("application/epub+zip");
    fs.writeFileSync("test-results/admin-chapbook.epub", Buffer.from(await epub.arrayBuffer()));
  });
});
