import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { dayInZone, timeInZone } from "../../common/dates.ts";
import { poem as poemAnswer } from "../../common/schemas/poems.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();
let admin: BrowserContext;
let page: Page;

beforeAll(async () => {
  admin = await site.signedIn("poet@example.com", { admin: true });
  page = await site.open(admin, "/admin");
});

/** What an anonymous reader gets: the page cache's copy once the page has been served before. */
const anonymousHtml = async (pathname: string) =>
  (await fetch(`${site.server.url}${pathname}`)).text();

describe("the poet's week in the browser", () => {
  it("writes a draft, previews it, schedules it, and a reader sees it appear when it is due", async () => {
    await anonymousHtml("/poetry");
    expect(await anonymousHtml("/poetry")).not.toContain("Tide Tables");

    await page.getByRole("button", { name: "Add New Poem" }).click();
    const form = page.getByRole("form", { name: "New Poem" });
    await form.getByLabel("Title").fill("Tide Tables");
    await form.getByLabel("Stanzas").fill("The sea keeps its own hours\nand tells no one");
    await form.getByText("Belonging", { exact: true }).click();
    await form.getByRole("button", { name: "Save as draft" }).click();
    await page.getByText("Poem created successfully").waitFor();
    const row = page.getByRole("listitem").filter({ hasText: "Tide Tables" });
    await row.getByText("Draft", { exact: true }).waitFor();
    await page.screenshot({ path: "test-results/publishing-draft-1280.png", fullPage: true });

    // Readers cannot open it; the poet sees it as readers will, under the banner.
    const hidden = await fetch(`${site.server.url}/poetry/tide-tables`);
    expect(hidden.status).toBe(404);
    const preview = await admin.newPage();
    await preview.goto(`${site.server.url}/poetry/tide-tables`);
    await preview.getByText("Draft — only you can see this").waitFor();
    await preview.getByRole("heading", { name: "Tide Tables" }).waitFor();
    await preview.close();

    // Scheduled in the form for this time tomorrow, on the site's clock (UTC here). The field
    // holds whole minutes, so the schedule is then moved to a few seconds from now through the
    // API the form saves with: the reader below waits seconds for it, not up to a minute.
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
    await row.getByRole("button", { name: "Edit Tide Tables" }).click();
    const edit = page.getByRole("form", { name: "Edit Poem" });
    await edit
      .getByLabel("Publish at (UTC)")
      .fill(`${dayInZone("UTC", tomorrow)}T${timeInZone("UTC", tomorrow)}`);
    await edit.getByRole("button", { name: /^Schedule for / }).click();
    await page.getByText("Poem updated successfully").waitFor();
    await row.getByText(/^Scheduled · /).waitFor();
    const scheduled = await admin.request.get(`${site.server.url}/api/poems/tide-tables`);
    const poem = poemAnswer.parse(await scheduled.json());
    expect(poem.publishAt.toISOString().slice(0, 16)).toBe(tomorrow.toISOString().slice(0, 16));
    const due = new Date(Date.now() + 6_000);
    const moved = await admin.request.put(`${site.server.url}/api/admin/poems/${poem.id}`, {
      headers: { Origin: site.server.url },
      data: {
        title: poem.title,
        slug: poem.slug,
        stanzas: poem.stanzas,
        tagIds: poem.tags.map((tag) => tag.id),
        publishAt: due.toISOString(),
      },
    });
    expect(moved.status()).toBe(200);
    expect(await anonymousHtml("/poetry")).not.toContain("Tide Tables");

    // No request, write or restart in between: the cached list ends when the poem comes due.
    const reader = await site.browser.newContext({ viewport: { width: 375, height: 812 } });
    const readerPage = await reader.newPage();
    await readerPage.goto(`${site.server.url}/poetry`);
    expect(await readerPage.content()).not.toContain("Tide Tables");
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due.getTime() - Date.now())));
    await readerPage.reload();
    await readerPage
      .getByRole("link", { name: /Tide Tables/ })
      .first()
      .waitFor();
    await readerPage.screenshot({
      path: "test-results/publishing-appeared-375.png",
      fullPage: true,
    });
    await reader.close();
    await page.reload();
    await hydrated(page);
    await page
      .getByRole("listitem")
      .filter({ hasText: "Tide Tables" })
      .getByText("Published", { exact: true })
      .waitFor();
  });

  it("turns on automatic sending and shows when the next digest goes", async () => {
    await page.goto(`${site.server.url}/admin/digest`);
    await hydrated(page);
    const schedule = page.getByRole("form", { name: "Automatic sending" });
    await schedule.getByLabel("Send the digest every week by itself").check();
    await schedule.getByLabel("Weekday").selectOption("Monday");
    await schedule.getByLabel("Time (UTC)").fill("09:00");
    await schedule.getByRole("button", { name: "Save schedule" }).click();
    await schedule.getByText(/^Next send: Monday, .* at 9:00 AM \(UTC\)/).waitFor();
    await page.screenshot({ path: "test-results/publishing-digest-schedule-1280.png" });
    await page.reload();
    await hydrated(page);
    expect(await schedule.getByLabel("Send the digest every week by itself").isChecked()).toBe(
      true,
    );
  });
});
