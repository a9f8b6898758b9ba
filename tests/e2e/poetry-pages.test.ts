import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { POETRY_PAGE_SIZE } from "../../common/constants.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

let server: RunningServer;
let browser: Browser;
const GENERATED = 40;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const seeded = await server.cli(
    "seed-load",
    "--poems",
    String(GENERATED),
    "--whispers",
    "0",
    "--echoes",
    "0",
  );
  expect(seeded.code).toBe(0);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it("renders the first page of a large collection and loads the rest on request", async () => {
  const total = DEMO_POEMS.length + GENERATED;
  const page = await browser.newPage();
  await page.goto(`${server.url}/poetry`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const cards = page.getByRole("main").getByRole("listitem");
  expect(await cards.count()).toBe(POETRY_PAGE_SIZE);
  const more = page.getByRole("button", { name: "Show more poems" });
  await more.click();
  await page.getByText(`${POETRY_PAGE_SIZE * 2} poems shown`).waitFor();
  await more.click();
  await page.getByText(`${total} poems shown`).waitFor();
  await more.waitFor({ state: "detached" });
  expect(await cards.count()).toBe(total);
  await page.close();
});
