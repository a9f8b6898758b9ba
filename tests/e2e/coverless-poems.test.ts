import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser, openAdminAsPoet } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * A poem without a cover: its card in the list is typographic (its title and opening lines) in
 * place of a grey box with a book icon, and its page is shared with its first stanza's card.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const { admin, page } = await openAdminAsPoet(browser, server);
  await page.getByRole("button", { name: "Add New Poem" }).click();
  const form = page.getByRole("form", { name: "New Poem" });
  await form.getByLabel("Title").fill("Bare Walls");
  await form
    .getByLabel("Stanzas")
    .fill(
      "No picture hangs here\nand the nail holes\nkeep their own counsel\nall winter\n\nStill.",
    );
  await form.getByRole("checkbox").first().check();
  await form.getByRole("button", { name: "Publish now" }).click();
  await page.getByText("Poem created successfully").waitFor();
  await admin.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each([375, 1280])("a poem without a cover at %i px", (width) => {
  it("has a typographic card in the list", async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/poetry`);
    await hydrated(page);
    const card = page.getByRole("listitem").filter({ hasText: "Bare Walls" });
    const cover = card.getByTestId("typographic-cover");
    await cover.scrollIntoViewIfNeeded();
    expect((await cover.innerText()).split(/\n+/)).toEqual([
      "Bare Walls",
      "No picture hangs here",
      "and the nail holes",
      "keep their own counsel",
    ]);
    expect(await page.getByTestId("cover-fallback").count()).toBe(0);
    await card.screenshot({ path: `test-results/coverless-card-${width}.png` });
    await page.screenshot({ path: `test-results/coverless-list-${width}.png` });
    await context.close();
  });
});

describe("a poem without a cover, shared", () => {
  it("uses its first stanza's card as og:image", async () => {
    const html = await (await fetch(`${server.url}/poetry/bare-walls`)).text();
    const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
    expect(image).toBe(new URL("/og/stanza/bare-walls/0.png", server.url).toString());
    const card = await fetch(new URL(new URL(image ?? "").pathname, server.url));
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toBe("image/png");
  });
});
