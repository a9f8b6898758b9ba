import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import { READER_PAGES } from "../helpers/reader-pages.ts";

/**
 * The JavaScript budget of a reader's page (docs/product/performance.md): 110 KB as transferred,
 * headers included (what Lighthouse counts in `npm run audit`), for everything the page fetches
 * until the network is quiet after hydration, so code a page loads as it mounts counts too: the
 * poem page reads its echo counts then (docs/decisions/030-echo-counts-without-the-contract.md).
 */
const BUDGET_BYTES = 110 * 1024;
const site = setUpBrowserSite();
let guestVoicePath = "";

beforeAll(async () => {
  const submitted = await fetch(`${site.server.url}/api/guest-submission`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: site.server.url },
    body: JSON.stringify({
      name: "Ilse Marr",
      email: "ilse@example.com",
      poemTitle: "Ferry Hours",
      poemText: "The ferry keeps\nits one slow hour\n\nand the gulls keep theirs",
    }),
  });
  expect(submitted.status).toBe(201);
  const admin = await site.signedIn("poet@example.com", { admin: true });
  const headers = { Origin: site.server.url };
  const [submission] = await (
    await admin.request.get(`${site.server.url}/api/admin/submissions`)
  ).json();
  const published = await admin.request.post(
    `${site.server.url}/api/admin/submissions/${submission.id}/publish`,
    { headers, data: {} },
  );
  expect(published.status()).toBe(201);
  guestVoicePath = `/guest-voices/${(await published.json()).slug}`;
  await admin.close();
});

/** Every script a page fetches until its network is quiet, with the bytes each took on the wire. */
async function scriptsOf(page: Page, path: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const scriptUrls = new Map<string, string>();
  const scripts: { path: string; bytes: number }[] = [];
  cdp.on("Network.responseReceived", (event) => {
    if (event.type === "Script") scriptUrls.set(event.requestId, event.response.url);
  });
  cdp.on("Network.loadingFinished", (event) => {
    const url = scriptUrls.get(event.requestId);
    if (url) scripts.push({ path: new URL(url).pathname, bytes: event.encodedDataLength });
  });
  await page.goto(`${site.server.url}${path}`);
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  return scripts;
}

describe("what a reader's phone downloads", () => {
  const pages = [...READER_PAGES, "guest voice"];

  it.each(pages)(
    "%s loads at most 110 KB of JavaScript, all it fetches after hydration included",
    async (name) => {
      const path = name === "guest voice" ? guestVoicePath : name;
      const context = await site.browser.newContext({ viewport: { width: 375, height: 667 } });
      const page = await context.newPage();
      const echoCounts = path.startsWith("/poetry/")
        ? page.waitForResponse((response) => /\/api\/poems\/[^/]+\/echos$/.test(response.url()))
        : undefined;
      const scripts = await scriptsOf(page, path);
      // The poem page asks for its echo counts as it mounts: that call and any code it needs
      // are inside the measurement.
      if (echoCounts) expect((await echoCounts).status()).toBe(200);
      const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
      const detail = scripts.map((script) => `${script.path} ${script.bytes}`).join("\n");
      expect(total, `${path}: ${(total / 1024).toFixed(1)} KB\n${detail}`).toBeLessThanOrEqual(
        BUDGET_BYTES,
      );
      // The framework is a file of its own, and every page fetches it: the measurement saw it.
      expect(scripts.some((script) => script.path.includes("/framework-"))).toBe(true);
      await context.close();
    },
  );
});
