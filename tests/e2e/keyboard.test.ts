import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const poem = DEMO_POEMS.find((candidate) => candidate.slug === "the-kitchen-table");
if (!poem) throw new Error("demo poem missing");

const site = setUpBrowserSite();

/** What the focused element is called: its label, or its text. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return (element?.getAttribute("aria-label") ?? element?.innerText ?? "").trim();
  });

/** Presses Tab until the element called `name` has the focus, as a keyboard user would. */
async function tabTo(page: Page, name: RegExp) {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press("Tab");
    if (name.test(await focusedName(page))) {
      // Focus must be visible where it lands (WCAG 2.4.7).
      const outline = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement as Element);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      });
      expect(outline, `focus ring on ${name}`).not.toMatch(/^none|\s0px$/);
      return;
    }
  }
  throw new Error(`Tab never reached ${name}`);
}

describe("without a mouse", () => {
  it("reads a poem to its end, saves a stanza, writes a whisper and signs out", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const link = await site.server.cli("login-link", "keyboard@example.com");
    const page = await context.newPage();
    await page.goto(link.stdout.trim());
    await page.goto(`${site.server.url}/poetry/${poem.slug}`);
    await hydrated(page);
    await page.waitForLoadState("networkidle");

    const last = poem.stanzas.length;
    for (let stanza = 2; stanza <= last; stanza++) {
      await page.keyboard.press("ArrowRight");
      await page.getByText(`${stanza} of ${last}`).waitFor();
    }
    await page.keyboard.press("Home");
    await page.getByText(`1 of ${last}`).waitFor();
    await page.keyboard.press("End");
    await page.getByText(`${last} of ${last}`).waitFor();

    await tabTo(page, /^Save to journal$/);
    await page.keyboard.press("Enter");
    await page.getByText("This stanza has been saved to your Ember Journal.").waitFor();

    await tabTo(page, /^Show whispers$/);
    await page.keyboard.press("Enter");
    // The panel comes with its first opening (docs/decisions/030): it is there before Tab goes on.
    await page.getByRole("button", { name: "Write a whisper" }).waitFor();
    await tabTo(page, /^Write a whisper$/);
    await page.keyboard.press("Enter");
    await page.keyboard.type("Read twice, with the lamp on.");
    await tabTo(page, /^Share$/);
    await page.keyboard.press("Enter");
    await page.getByText("Your reflection has been added to this stanza.").waitFor();

    await tabTo(page, /^Logout$/);
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "Login" }).first().waitFor();
    await context.close();
  });
});

describe("for readers who need less motion or larger text", () => {
  it("turns animations and transitions off when the system asks for reduced motion", async () => {
    const context = await site.browser.newContext({ reducedMotion: "reduce" });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/poetry/${poem.slug}`);
    await hydrated(page);
    const longest = await page.evaluate(() =>
      Math.max(
        ...[...document.querySelectorAll("*")].map((element) => {
          const style = getComputedStyle(element);
          return Math.max(
            ...`${style.transitionDuration},${style.animationDuration}`
              .split(",")
              .map((value) => Number.parseFloat(value) * (value.trim().endsWith("ms") ? 1 : 1000)),
          );
        }),
      ),
    );
    expect(longest).toBeLessThan(1);
    await context.close();
  });

  it.each(["/", "/poetry", `/poetry/${poem.slug}`, "/ember", "/books", "/journal", "/contribute"])(
    "keeps %s whole at double zoom: nothing cut off or scrolled sideways",
    async (path) => {
      // 200 % zoom on a 1280 px window lays the page out at 640 CSS pixels.
      const context = await site.browser.newContext({
        viewport: { width: 640, height: 450 },
        deviceScaleFactor: 2,
      });
      const page = await context.newPage();
      await page.goto(`${site.server.url}${path}`);
      await hydrated(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    },
  );
});
