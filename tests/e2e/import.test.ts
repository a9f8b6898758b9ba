import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import { plainPoemsZip } from "../helpers/import-files.ts";

const site = setUpBrowserSite();
let scratch: string;
let exportFile: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ev-import-"));
  exportFile = path.join(scratch, "my-poems.zip");
  fs.writeFileSync(exportFile, plainPoemsZip());
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function previewExport(page: Page) {
  await page.getByLabel("Where it comes from").selectOption("files");
  await page.getByLabel("Export file").setInputFiles(exportFile);
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("heading", { name: "What my-poems.zip holds" }).waitFor();
}

describe("the poet's import page (docs/product/import.md)", () => {
  it("previews a folder of poems, imports the ones kept, shows progress, and the poems read", async () => {
    const admin = await site.signedIn("poet@example.com", { admin: true });
    const page = await site.open(admin, "/admin");
    await page.getByRole("link", { name: "Import" }).click();
    await page.waitForURL(/\/admin\/import$/);
    await hydrated(page);

    await previewExport(page);
    const salt = page.locator("li", { has: page.getByLabel("Salt Road") });
    await salt.getByText("and the salt runs on.").waitFor();
    expect(await salt.textContent()).toContain("/poetry/salt-road");
    expect(await salt.textContent()).toContain("Sea, Road");
    // The indentation typed in the file is the line's indentation here too.
    expect(await salt.locator(".whitespace-pre").first().textContent()).toBe("  ");
    await page.screenshot({ path: "test-results/admin-import-preview-1280.png", fullPage: true });

    await page.getByLabel("Left Out").uncheck();
    await page.getByRole("button", { name: "Import 2 poems" }).click();
    await page.getByText("Import finished").waitFor({ timeout: 30_000 });
    const progress = page.getByRole("region", { name: "Imported my-poems.zip" });
    expect(await progress.getByRole("status").textContent()).toContain("Poems: 2 of 2");
    await page.screenshot({ path: "test-results/admin-import-done-1280.png", fullPage: true });

    const poem = await site.open(admin, "/poetry/salt-road");
    await poem.getByText("The road runs down to salt,").first().waitFor();
    const leftOut = await fetch(`${site.server.url}/poetry/left-out`);
    expect(leftOut.status).toBe(404);
    await admin.close();
  }, 120_000);

  it("reads at 375 px, and a second preview says the poems are already here", async () => {
    const admin = await site.signedIn("poet@example.com", {
      admin: true,
      viewport: { width: 375, height: 800 },
    });
    const page = await site.open(admin, "/admin/import");
    await previewExport(page);
    const salt = page.locator("li", { has: page.getByLabel("Salt Road") });
    expect(await salt.textContent()).toContain("already imported");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await page.screenshot({ path: "test-results/admin-import-375.png", fullPage: true });
    await admin.close();
  }, 120_000);
});
