import type { BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();

async function open(path: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await site.browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...options,
  });
  const page = await context.newPage();
  await page.goto(`${site.server.url}${path}`);
  if (options.javaScriptEnabled !== false) {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  }
  return page;
}

const tenRooms = DEMO_POEMS.find((poem) => poem.slug === "ten-rooms-of-my-fathers-house");
if (!tenRooms) throw new Error("demo poem missing");
const counter = (page: Page) =>
  page.locator("[aria-live=polite]").filter({ hasText: / of / }).textContent();
const visibleStanza = (page: Page) => page.locator("li[id^=s-]:visible").innerText();

describe("poem list", () => {
  it("toggles a pillar filter in the URL, and selecting it again clears it", async () => {
    const page = await open("/poetry");
    const all = await page.locator("main ul > li").count();
    expect(all).toBe(DEMO_POEMS.length);
    await page
      .getByRole("navigation", { name: "Pillars" })
      .getByRole("link", { name: "Fatherhood" })
      .click();
    await page.waitForURL(/\?tag=Fatherhood$/);
    await page.waitForFunction(
      (expected) => document.querySelectorAll("main ul > li").length === expected,
      DEMO_POEMS.filter((poem) => poem.tags.includes("Fatherhood")).length,
    );
    const pillar = page
      .getByRole("navigation", { name: "Pillars" })
      .getByRole("link", { name: "Fatherhood" });
    expect(await pillar.getAttribute("aria-current")).toBe("true");
    await pillar.click();
    await page.waitForURL(`${site.server.url}/poetry`);
    await page.waitForFunction(
      (expected) => document.querySelectorAll("main ul > li").length === expected,
      all,
    );
    await page.context().close();
  });

  it("opens Seasonal Themes, filters by a tag, and 'All' clears it", async () => {
    const page = await open("/poetry");
    await page.getByText("Seasonal Themes").click();
    const themes = page.getByRole("navigation", { name: "Themes" });
    await themes.getByRole("link", { name: "Advent" }).click();
    await page.waitForURL(/\?tag=Advent$/);
    await page.getByRole("heading", { name: "Advent Lamp" }).waitFor();
    await themes.getByRole("link", { name: "All" }).click();
    await page.waitForURL(`${site.server.url}/poetry`);
    await page.context().close();
  });

  it("shows the filtered empty state for a tag with no poems", async () => {
    const page = await open("/poetry?tag=Nothing%20Here");
    await page.getByText('No poems found for "Nothing Here"').waitFor();
    await page.getByText("Come back tomorrow for new poetry.").waitFor();
    await page.context().close();
  });

  it("shows each card's details: alt text, two tags and '+N more', a 120-character preview, the count", async () => {
    const page = await open("/poetry");
    const poem = DEMO_POEMS.find((candidate) => candidate.slug === "road-to-the-far-chapel");
    if (!poem) throw new Error("demo poem missing");
    const card = page
      .locator("main ul > li")
      .filter({ has: page.getByRole("heading", { name: poem.title }) });
    expect(await card.getByRole("img").getAttribute("alt")).toBe(poem.coverAlt);
    const text = await card.innerText();
    expect(text).toContain(`+${poem.tags.length - 2} more`);
    expect(text).toContain(`${poem.stanzas.length} stanzas`);
    const preview = await card.locator("p").nth(1).innerText();
    expect(preview.endsWith("...")).toBe(true);
    expect(preview.length).toBeLessThanOrEqual(123);
    expect(await card.getByRole("link").getAttribute("href")).toBe(`/poetry/${poem.slug}`);
    await page.context().close();
  });
});

describe("stanza viewer", () => {
  it("moves with each key, stays in bounds, and writes the hash", async () => {
    const page = await open(`/poetry/${tenRooms.slug}`);
    expect(await counter(page)).toBe(`1 of ${tenRooms.stanzas.length}`);
    expect(await page.getByRole("button", { name: "Previous stanza" }).count()).toBe(0);
    await page.keyboard.press("ArrowLeft");
    expect(await counter(page)).toBe(`1 of ${tenRooms.stanzas.length}`);
    await page.keyboard.press("ArrowRight");
    expect(await counter(page)).toBe(`2 of ${tenRooms.stanzas.length}`);
    expect(new URL(page.url()).hash).toBe("#s-1");
    await page.keyboard.press("ArrowDown");
    expect(await counter(page)).toBe(`3 of ${tenRooms.stanzas.length}`);
    await page.keyboard.press("ArrowUp");
    expect(await counter(page)).toBe(`2 of ${tenRooms.stanzas.length}`);
    await page.keyboard.press("End");
    expect(await counter(page)).toBe(`${tenRooms.stanzas.length} of ${tenRooms.stanzas.length}`);
    expect(await page.getByRole("button", { name: "Next stanza" }).count()).toBe(0);
    await page.keyboard.press("ArrowRight");
    expect(new URL(page.url()).hash).toBe(`#s-${tenRooms.stanzas.length - 1}`);
    await page.keyboard.press("Home");
    expect(await counter(page)).toBe(`1 of ${tenRooms.stanzas.length}`);
    await page.getByRole("button", { name: "Go to stanza 4" }).click();
    expect(await visibleStanza(page)).toBe(tenRooms.stanzas[3]?.split(" / ").join("\n"));
    await page.getByRole("button", { name: "Next stanza" }).click();
    expect(await counter(page)).toBe(`5 of ${tenRooms.stanzas.length}`);
    await page.context().close();
  });

  it("reads the hash on load and on hash change, clamping out-of-range values", async () => {
    const page = await open(`/poetry/${tenRooms.slug}#s-2`);
    expect(await counter(page)).toBe(`3 of ${tenRooms.stanzas.length}`);
    await page.evaluate(() => {
      window.location.hash = "#s-99";
    });
    await page.waitForFunction(() => document.body.innerText.includes("10 of 10"));
    await page.context().close();
  });

  it("moves on a horizontal swipe of more than 50 px on a small screen", async () => {
    const page = await open(`/poetry/${tenRooms.slug}`, {
      viewport: { width: 375, height: 800 },
      hasTouch: true,
      isMobile: true,
    });
    const swipe = (fromX: number, toX: number) =>
      page.evaluate(
        ([from, to]) => {
          const target = document.querySelector("section[aria-roledescription='stanza viewer']");
          if (!target) throw new Error("viewer missing");
          const touch = (x: number) =>
            new Touch({ identifier: 1, target, clientX: x, clientY: 300 });
          target.dispatchEvent(
            new TouchEvent("touchstart", { touches: [touch(from as number)], bubbles: true }),
          );
          target.dispatchEvent(
            new TouchEvent("touchend", { changedTouches: [touch(to as number)], bubbles: true }),
          );
        },
        [fromX, toX],
      );
    await swipe(300, 200);
    expect(await counter(page)).toBe(`2 of ${tenRooms.stanzas.length}`);
    await swipe(300, 270);
    expect(await counter(page)).toBe(`2 of ${tenRooms.stanzas.length}`);
    await swipe(100, 250);
    expect(await counter(page)).toBe(`1 of ${tenRooms.stanzas.length}`);
    await page.context().close();
  });

  it("copies the shareable stanza link", async () => {
    const page = await open(`/poetry/${tenRooms.slug}#s-1`, {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await page.getByRole("button", { name: "Copy link" }).click();
    await page.getByText("Link copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${site.server.url}/share/poem/${tenRooms.slug}?s=1`,
    );
    await page.context().close();
  });

  it("saves the stanza as a PNG named after the poem", async () => {
    const page = await open(`/poetry/${tenRooms.slug}#s-2`, { acceptDownloads: true });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Save image" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("ten-rooms-of-my-father's-house-stanza-3.png");
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const png = Buffer.concat(chunks);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    // 600x400 at scale 2.
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(800);
    await page.getByText("Image saved").waitFor();
    await page.context().close();
  });

  it("shows every stanza in order without JavaScript, with the page's metadata", async () => {
    const page = await open(`/poetry/${tenRooms.slug}`, { javaScriptEnabled: false });
    const stanzas = await page.locator("li[id^=s-]").allInnerTexts();
    expect(stanzas).toEqual(tenRooms.stanzas.map((stanza) => stanza.split(" / ").join("\n")));
    expect(await page.title()).toBe(`${tenRooms.title} | Ember Verse`);
    expect(await page.locator('meta[property="og:type"]').getAttribute("content")).toBe("article");
    expect(await page.locator('meta[name="description"]').getAttribute("content")).toBe(
      tenRooms.stanzas[0]?.slice(0, 100),
    );
    expect(await page.locator('meta[property="og:image"]').getAttribute("content")).toMatch(
      new RegExp(`^${site.server.url}/objects/images/`),
    );
    const jsonLd = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
    );
    expect(jsonLd).toMatchObject({ "@type": "CreativeWork", genre: "Poem", name: tenRooms.title });
    await page.context().close();
  });

  it("answers an unknown poem with its not-found state and 404", async () => {
    const response = await fetch(`${site.server.url}/poetry/no-such-poem`);
    expect(response.status).toBe(404);
    const page = await open("/poetry/no-such-poem");
    await page.getByRole("heading", { name: "Poem not found" }).waitFor();
    await page.getByText("This poem might have been moved or doesn't exist.").waitFor();
    await page.getByRole("link", { name: "Back to Poetry" }).first().waitFor();
    await page.context().close();
  });
});

describe("share links and themes", () => {
  it("describes the stanza for link previews and sends readers on to it", async () => {
    const html = await (await fetch(`${site.server.url}/share/poem/${tenRooms.slug}?s=3`)).text();
    expect(html).toContain(`content="${tenRooms.stanzas[3]}"`);
    expect(html).toContain(`/og/stanza/${tenRooms.slug}/3.png`);
    // The share page sends the reader on at once, so there is no hydration to wait for.
    const page = await (await site.browser.newContext()).newPage();
    await page.goto(`${site.server.url}/share/poem/${tenRooms.slug}?s=abc`);
    await page.waitForURL(new RegExp(`/poetry/${tenRooms.slug}#s-0$`));
    await page.context().close();
  });

  it("shows a theme's poems and embers, and 'Theme Not Found' with 404 for an unknown one", async () => {
    const page = await open("/themes/fatherhood");
    await page.getByRole("heading", { name: "Fatherhood", level: 1 }).waitFor();
    const badge = await page.getByRole("heading", { name: /Poetry/ }).innerText();
    expect(badge).toContain(
      String(DEMO_POEMS.filter((poem) => poem.tags.includes("Fatherhood")).length),
    );
    await page.getByRole("heading", { name: "Daily Embers" }).waitFor();
    expect((await fetch(`${site.server.url}/themes/nope`)).status).toBe(404);
    await page.goto(`${site.server.url}/themes/nope`);
    await page.getByRole("heading", { name: "Theme Not Found" }).waitFor();
    await page.getByRole("link", { name: "Return Home" }).waitFor();
    await page.context().close();
  });
});
