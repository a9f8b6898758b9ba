import { hydrated, launchBrowser } from "./tests/helpers/browser.ts";
import { startServer } from "./tests/helpers/server.ts";

const out = "/tmp/poet-shots";
const server = await startServer({ SITE_NAME: "Ember Verse" });
const browser = await launchBrowser();
const steps = process.argv.slice(2);
try {
  for (const [width, height] of [[375, 667], [1280, 800]] as const) {
    const context = await browser.newContext({ viewport: { width, height } });
    const link = await server.cli("login-link", `poet${width}@example.com`, "--admin");
    const page = await context.newPage();
    await page.goto(link.stdout.trim());
    const shot = (name: string, fullPage = false) =>
      page.screenshot({ path: `${out}/${name}-${width}.png`, fullPage });
    if (steps.includes("admin")) {
      await page.goto(`${server.url}/admin`);
      await hydrated(page);
      await page.getByRole("button", { name: "Remove the sample content" }).waitFor();
      await shot("admin-start-fresh");
      await page.getByRole("button", { name: "Remove the sample content" }).click();
      await shot("admin-start-fresh-confirm");
      await page.getByRole("tab", { name: "Tags" }).click();
      await page.getByRole("button", { name: "Delete Becoming" }).click();
      await page.getByText("Deleting “Becoming”").scrollIntoViewIfNeeded();
      await shot("admin-tags-confirm");
      await page.getByRole("tab", { name: "Embers" }).click();
      await page.getByRole("button", { name: /^Delete ember of/ }).first().waitFor();
      await page.getByRole("heading", { name: "All embers" }).scrollIntoViewIfNeeded();
      await shot("admin-embers-all");
      await page.getByRole("tab", { name: "Poems" }).click();
      await page.getByRole("checkbox", { name: /^Select / }).nth(1).check();
      await page.getByRole("checkbox", { name: /^Select / }).nth(2).check();
      await page.getByRole("button", { name: /Delete selected/ }).scrollIntoViewIfNeeded();
      await shot("admin-poems-bulk");
    }
    if (steps.includes("settings")) {
      await page.goto(`${server.url}/admin/settings`);
      await hydrated(page);
      await page.getByLabel("Site title").fill(`Salt & Lantern ${width}`);
      await page.getByRole("button", { name: "Save" }).last().click();
      await page.getByText(`Salt & Lantern ${width}`).first().waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot("settings-title-saved");
    }
    for (const extra of steps.filter((step) => step.startsWith("/"))) {
      await page.goto(`${server.url}${extra}`);
      await hydrated(page);
      await shot(`page${extra.replaceAll("/", "_")}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
