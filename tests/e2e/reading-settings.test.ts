import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

/**
 * Reading settings (decision 021): text size and theme chosen on the poem, ember and book-preview
 * pages, kept in localStorage ('emberReading') and applied before the first paint, on pages
 * rendered fresh (nonce policy) and on pages from the cache (hash policy) alike.
 */
const POEM = "/poetry/the-kitchen-table";
const LIGHT_PAPER = "rgb(251, 248, 243)";

const site = setUpBrowserSite();

interface FirstFrame {
  theme: string | undefined;
  readingSize: string | undefined;
  background: string;
  stanzaFontSize: number;
  hydrated: boolean;
}

/**
 * Records the page as its first frame shows it: an animation frame runs just before a paint, and
 * the first one waits until the page's markup is whole (decision 013). Also sums layout shifts.
 */
function watchFirstFrame(page: Page) {
  return page.addInitScript(() => {
    const watch = { firstFrame: undefined as unknown, shifts: 0 };
    Object.assign(window, { watch });
    requestAnimationFrame(() => {
      const root = document.documentElement;
      const stanza = document.querySelector("li[id^=s-]");
      watch.firstFrame = {
        theme: root.dataset.theme,
        readingSize: root.dataset.readingSize,
        background: getComputedStyle(root).backgroundColor,
        stanzaFontSize: stanza ? Number.parseFloat(getComputedStyle(stanza).fontSize) : 0,
        hydrated: root.dataset.hydrated === "true",
      };
    });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        watch.shifts += (entry as unknown as { value: number }).value;
    }).observe({ type: "layout-shift", buffered: true });
  });
}

const watched = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { watch: { firstFrame: FirstFrame; shifts: number } }).watch,
  );

/** Opens a page that records its first frame, collecting any Content-Security-Policy complaint. */
async function openWatched(context: BrowserContext, path: string) {
  const page = await context.newPage();
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") refused.push(message.text());
  });
  await watchFirstFrame(page);
  await page.goto(`${site.server.url}${path}`);
  await hydrated(page);
  return { page, refused };
}

async function newContext(options: BrowserContextOptions = {}) {
  return site.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
}

/** A context whose every page starts with this 'emberReading' value in localStorage. */
async function contextWithSaved(value: string, options: BrowserContextOptions = {}) {
  const context = await newContext(options);
  await context.addInitScript((saved) => localStorage.setItem("emberReading", saved), value);
  return context;
}

describe("reading settings", () => {
  it("are chosen with the keyboard, apply at once, and are kept in localStorage", async () => {
    const context = await newContext({ colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(`${site.server.url}${POEM}`);
    await hydrated(page);
    const stanza = page.locator("li[id^=s-]:visible");
    const defaultSize = await stanza.evaluate((element) =>
      Number.parseFloat(getComputedStyle(element).fontSize),
    );

    await page.getByText("Reading settings").focus();
    await page.keyboard.press("Enter");
    const sizes = page.getByRole("group", { name: "Text size" });
    const themes = page.getByRole("group", { name: "Theme" });
    // With nothing saved, the choices show what is in effect: default size, the system's theme.
    expect(await sizes.getByRole("radio", { name: "Default" }).isChecked()).toBe(true);
    expect(await themes.getByRole("radio", { name: "Light" }).isChecked()).toBe(true);

    await sizes.getByRole("radio", { name: "Default" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await sizes.getByRole("radio", { name: "Largest" }).isChecked()).toBe(true);
    await themes.getByRole("radio", { name: "Light" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await themes.getByRole("radio", { name: "Dark" }).isChecked()).toBe(true);

    const applied = await page.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      background: getComputedStyle(document.documentElement).backgroundColor,
      saved: localStorage.getItem("emberReading"),
    }));
    expect(applied.theme).toBe("dark");
    expect(applied.background).not.toBe(LIGHT_PAPER);
    expect(JSON.parse(applied.saved ?? "")).toEqual({ size: "largest", theme: "dark" });
    const largestSize = await stanza.evaluate((element) =>
      Number.parseFloat(getComputedStyle(element).fontSize),
    );
    expect(largestSize / defaultSize).toBeCloseTo(1.4, 2);
    await context.close();
  });

  it("are applied before the first paint, with no layout shift, on cached and fresh pages", async () => {
    const saved = JSON.stringify({ size: "largest", theme: "sepia" });
    const reader = await contextWithSaved(saved);
    const link = await site.server.cli("login-link", "reader@example.com");
    const signedIn = await contextWithSaved(saved);
    const signIn = await signedIn.newPage();
    await signIn.goto(link.stdout.trim());
    await signIn.close();
    // The anonymous reader is answered from the page cache (script hashes), the signed-in one
    // gets a fresh render (nonce): the root's script runs under both policies.
    for (const [context, path] of [
      [reader, POEM],
      [reader, POEM],
      [signedIn, POEM],
    ] as const) {
      const { page, refused } = await openWatched(context, path);
      const { firstFrame, shifts } = await watched(page);
      expect(firstFrame).toMatchObject({ theme: "sepia", readingSize: "largest", hydrated: false });
      expect(firstFrame.background).toBe("rgb(244, 236, 216)");
      // Largest: 1.4 times the default 1.5rem (24 px) of a stanza at 1280 px.
      expect(firstFrame.stanzaFontSize).toBeCloseTo(24 * 1.4, 1);
      expect(shifts).toBe(0);
      expect(refused).toEqual([]);
      await page.close();
    }
    const headers = await fetch(`${site.server.url}${POEM}`).then((answer) =>
      answer.headers.get("content-security-policy"),
    );
    expect(headers).toMatch(/'sha256-/);
    await Promise.all([reader.close(), signedIn.close()]);
  });

  it("apply to the whole site, its header and footer too, on pages without the control", async () => {
    const chrome = async (context: BrowserContext) => {
      const { page } = await openWatched(context, "/books");
      const colours = await page.evaluate(() =>
        ["html", "header", "header a", "main", "footer", "footer a"].map((selector) => {
          const element = document.querySelector(selector);
          if (!element) return `${selector} missing`;
          const style = getComputedStyle(element);
          return `${selector}: ${style.backgroundColor} ${style.color}`;
        }),
      );
      await context.close();
      return colours;
    };
    const light = await chrome(await newContext({ colorScheme: "light" }));
    const dark = await chrome(
      await contextWithSaved(JSON.stringify({ size: "default", theme: "dark" })),
    );
    for (const [index, colours] of dark.entries()) expect(colours).not.toBe(light[index]);
  });

  it("follow prefers-color-scheme until a theme is chosen", async () => {
    const context = await newContext({ colorScheme: "dark" });
    const { page } = await openWatched(context, "/ember");
    const { firstFrame } = await watched(page);
    expect(firstFrame.theme).toBeUndefined();
    expect(firstFrame.background).not.toBe(LIGHT_PAPER);
    await page.getByText("Reading settings").click();
    const themes = page.getByRole("group", { name: "Theme" });
    expect(await themes.getByRole("radio", { name: "Dark" }).isChecked()).toBe(true);
    // A size alone is kept without a theme, so the system still decides it.
    await page.getByRole("group", { name: "Text size" }).getByText("Larger").click();
    expect(await page.evaluate(() => localStorage.getItem("emberReading"))).toBe(
      JSON.stringify({ size: "larger" }),
    );
    await context.close();
  });

  it.each(["{not json", "null", '"dark"', JSON.stringify({ size: "enormous", theme: "purple" })])(
    "ignore a corrupt saved value (%s) and use the defaults",
    async (value) => {
      const context = await contextWithSaved(value, { colorScheme: "light" });
      const { page, refused } = await openWatched(context, POEM);
      const { firstFrame, shifts } = await watched(page);
      expect(firstFrame).toMatchObject({ theme: undefined, readingSize: undefined });
      expect(firstFrame.background).toBe(LIGHT_PAPER);
      expect(firstFrame.stanzaFontSize).toBe(24);
      expect(shifts).toBe(0);
      expect(refused).toEqual([]);
      await page.getByText("Reading settings").click();
      expect(
        await page
          .getByRole("group", { name: "Text size" })
          .getByRole("radio", { name: "Default" })
          .isChecked(),
      ).toBe(true);
      await context.close();
    },
  );

  it("keep the largest text within the screen at 375 px, on the poem, ember and book pages", async () => {
    const context = await contextWithSaved(JSON.stringify({ size: "largest", theme: "dark" }), {
      viewport: { width: 375, height: 812 },
    });
    for (const path of [POEM, "/ember", "/book/the-shape-of-belonging/preview"]) {
      const { page } = await openWatched(context, path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(375);
      await page.close();
    }
    await context.close();
  });
});
