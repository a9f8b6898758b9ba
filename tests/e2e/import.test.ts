import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import { plainPoemsZip } from "../helpers/import-poems.ts";

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
    const axe = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(
      axe.violations.map(
        (violation) =>
          `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      ),
    ).toEqual([]);
    await admin.close();
  }, 120_000);
});

describe("a second WordPress site and a later export (docs/decisions/060-an-imported-poem-is-one-per-site.md)", () => {
  const real = (name: string) =>
    path.resolve(import.meta.dirname, "../fixtures/import/real/wordpress", name);

  it("lists the old addresses that redirect and those another site's poem keeps; a changed poem can be updated", async () => {
    const first = await site.server.cli("import", real("valid-wxr-1.0.xml"), "--keep-cover-urls");
    expect(first.stdout).toContain("done: 3 poems imported");
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 800 },
    ]) {
      const admin = await site.signedIn("poet@example.com", { admin: true, viewport });
      const page = await site.open(admin, "/admin/import");
      await page.getByLabel("Where it comes from").selectOption("wordpress");
      await page.getByLabel("Export file").setInputFiles(real("mg-wp-xml-posts-only.xml"));
      await page.getByRole("button", { name: "Preview" }).click();
      const basic = page.locator("li", { has: page.getByLabel("Basic Post") });
      await basic.getByText("/blog/basic-post.html → /poetry/basic-posthtml").waitFor();
      expect(await basic.textContent()).toContain(
        "/?p=4 will not redirect: “Alpha post”, imported earlier, keeps this address",
      );
      await page.screenshot({
        path: `test-results/admin-import-second-site-${viewport.width}.png`,
        fullPage: true,
      });

      await page.getByLabel("Export file").setInputFiles(real("small-export.xml"));
      await page.getByRole("button", { name: "Preview" }).click();
      const hello = page.locator("li", { has: page.getByLabel("Hello world!") });
      await hello.getByText("changed there since it was imported: tick it to update it").waitFor();
      await page.getByLabel("Hello world!").check();
      expect(await hello.textContent()).toContain("changed there since: it will be updated");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.screenshot({
        path: `test-results/admin-import-changed-${viewport.width}.png`,
        fullPage: true,
      });
      await admin.close();
    }
  }, 180_000);
});

describe("the CLI's import (docs/product/import.md)", () => {
  it("lists, dry-runs, imports once beside the running server, and refuses a bad file in one line", async () => {
    const folder = path.join(scratch, "notebook");
    fs.mkdirSync(folder);
    fs.writeFileSync(
      path.join(folder, "low-tide.md"),
      "---\ntitle: Low Tide\ndate: 2018-08-08\ntags: [Sea]\n---\n\nThe sea goes out\n  to think.\n",
    );
    fs.writeFileSync(path.join(folder, "kettle.txt"), "Kettle\n\nIt sings before it boils.\n");

    const dry = await site.server.cli("import", folder, "--dry-run", "--source", "files");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("found 2 poems in notebook (files):");
    expect(dry.stdout).toContain("Low Tide → /poetry/low-tide, published 2018-08-08");
    expect(dry.stdout).toContain("dry run: nothing stored");
    expect((await fetch(`${site.server.url}/poetry/low-tide`)).status).toBe(404);

    const done = await site.server.cli("import", folder, "--keep-cover-urls");
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("done: 2 poems imported, 0 already here");
    expect((await fetch(`${site.server.url}/poetry/low-tide`)).status).toBe(200);
    const again = await site.server.cli("import", folder);
    expect(again.stdout).toContain("done: 0 poems imported, 2 already here");

    const notAnExport = path.join(scratch, "scan.pdf");
    fs.writeFileSync(notAnExport, "%PDF-1.7\n%âãÏÓ\n1 0 obj\n");
    const refused = await site.server.cli("import", notAnExport);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("scan.pdf");
    const misused = await site.server.cli("import", folder, "--source", "medium");
    expect(misused.code).toBe(2);
    expect(misused.stderr).toContain("--source must be substack, ghost, wordpress or files");
  }, 120_000);
});
