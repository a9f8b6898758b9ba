import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser, openAdminAsPoet } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * Verse typography (decision 021): the indentation a poet types in the poem form reaches the page,
 * a line too long for a phone wraps with a hanging indent, and a 40-character line fits at 375 px.
 */
const FORTY_CHARACTERS = "we carried the chairs in out of the rain";
const LONG_LINE =
  "and the kettle sang its one long note while the rain kept count upon the roof of the shed";
const STANZAS = `Doorways
    stay open
        for you

${LONG_LINE}
${FORTY_CHARACTERS}

   even now
the light comes in`;

let server: RunningServer;
let browser: Browser;
let reader: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const { admin, page } = await openAdminAsPoet(browser, server);
  await page.getByRole("button", { name: "Add New Poem" }).click();
  const form = page.getByRole("form", { name: "New Poem" });
  await form.getByLabel("Title").fill("Open Doorways");
  await form.getByLabel("Stanzas").fill(STANZAS);
  await form.getByRole("checkbox").first().check();
  await form.getByRole("button", { name: "Publish now" }).click();
  await page.getByText("Poem created successfully").waitFor();
  await admin.close();

  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  reader = await context.newPage();
  await reader.goto(`${server.url}/poetry/open-doorways`);
  await hydrated(reader);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Where each row of a line's words starts, in px from the stanza's left edge, and the font size. */
async function rowsOf(page: Page, stanzaIndex: number, lineIndex: number) {
  return page.evaluate(
    ({ stanzaIndex, lineIndex }) => {
      const stanza = document.getElementById(`s-${stanzaIndex}`);
      const line = stanza?.children[lineIndex];
      const words = line?.lastElementChild?.firstChild;
      if (!stanza || !line || !words) throw new Error("no such line");
      const range = document.createRange();
      range.selectNodeContents(words);
      const left = stanza.getBoundingClientRect().left;
      const tops = new Map<number, number>();
      for (const box of range.getClientRects()) {
        const top = Math.round(box.top);
        tops.set(top, Math.min(tops.get(top) ?? Number.POSITIVE_INFINITY, box.left - left));
      }
      return {
        text: line.textContent,
        starts: [...tops.values()],
        fontSize: Number.parseFloat(getComputedStyle(stanza).fontSize),
      };
    },
    { stanzaIndex, lineIndex },
  );
}

describe("verse typography at 375 px", () => {
  it("keeps the indentation the poet typed, the stanza's first line's included", async () => {
    const [first, second, third] = await Promise.all(
      [0, 1, 2].map((line) => rowsOf(reader, 0, line)),
    );
    expect([first?.text, second?.text, third?.text]).toEqual([
      "Doorways",
      "    stay open",
      "        for you",
    ]);
    expect(first?.starts[0]).toBeCloseTo(0, 0);
    const indent = second?.starts[0] ?? 0;
    expect(indent).toBeGreaterThan(4);
    // Twice the spaces, twice the indentation.
    expect(third?.starts[0]).toBeCloseTo(indent * 2, 0);

    await reader.getByRole("button", { name: "Go to stanza 3" }).click();
    const indented = await rowsOf(reader, 2, 0);
    expect(indented.text).toBe("   even now");
    expect(indented.starts[0]).toBeGreaterThan(4);
    await reader.getByRole("button", { name: "Go to stanza 1" }).click();
  });

  it("wraps a long line with its later rows hung about 2em further in", async () => {
    await reader.getByRole("button", { name: "Go to stanza 2" }).click();
    const { text, starts, fontSize } = await rowsOf(reader, 1, 0);
    expect(text).toBe(LONG_LINE);
    expect(starts.length).toBeGreaterThan(1);
    const [first = 0, ...later] = starts;
    for (const start of later) expect(start - first).toBeCloseTo(2 * fontSize, 0);
    await reader.screenshot({ path: "test-results/verse-typography-375.png", fullPage: true });
  });

  it("fits a 40-character line on one row at the default size", async () => {
    expect(FORTY_CHARACTERS).toHaveLength(40);
    const { text, starts } = await rowsOf(reader, 1, 1);
    expect(text).toBe(FORTY_CHARACTERS);
    expect(starts).toHaveLength(1);
  });
});

/**
 * Where the rows of one line of verse start, found by its text anywhere on the page: px from the
 * left of the block that holds the line's stanza, with the font size there.
 */
async function rowsOfLine(page: Page, line: string) {
  return page.evaluate((line) => {
    const walker = document.createTreeWalker(document.querySelector("main") ?? document.body, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(line) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + line.length);
      const stanza = node.parentElement?.closest("p, li");
      if (!stanza) throw new Error("the line is in no stanza");
      const left = stanza.getBoundingClientRect().left;
      const tops = new Map<number, number>();
      for (const box of range.getClientRects()) {
        if (box.width === 0) continue;
        const top = Math.round(box.top);
        tops.set(top, Math.min(tops.get(top) ?? Number.POSITIVE_INFINITY, box.left - left));
      }
      return {
        starts: [...tops.values()],
        fontSize: Number.parseFloat(getComputedStyle(stanza).fontSize),
      };
    }
    throw new Error(`no line '${line}' on the page`);
  }, line);
}

/** The vertical space between each stanza and the next, in px. */
async function gapsBetweenStanzas(page: Page, stanzaSelector: string) {
  return page.locator(stanzaSelector).evaluateAll((stanzas) =>
    stanzas.slice(1).map((stanza, position) => {
      const above = stanzas[position]?.getBoundingClientRect();
      return Math.round(stanza.getBoundingClientRect().top - (above?.bottom ?? 0));
    }),
  );
}

/**
 * The same verse style wherever verse is shown: a guest poem and a book's preview page wrap a
 * long line with the hanging indent of poem pages, and a guest poem's stanzas are evenly spaced.
 */
describe.each([375, 1280])("verse beyond the poem pages at %i px", (width) => {
  it("sets a guest poem with hanging indents and even gaps between its stanzas", async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/guest-voices/maren-hollis`);
    await hydrated(page);
    if (width === 375) {
      const { starts, fontSize } = await rowsOfLine(
        page,
        "It only asks that I come home with something sweet.",
      );
      expect(starts.length).toBeGreaterThan(1);
      const [first = 0, ...later] = starts;
      for (const start of later) expect(start - first).toBeCloseTo(2 * fontSize, 0);
    }
    const gaps = await gapsBetweenStanzas(page, "main section > div > p");
    expect(gaps).toHaveLength(2);
    expect(new Set(gaps).size, `gaps ${gaps.join(", ")}`).toBe(1);
    await page.screenshot({ path: `test-results/verse-guest-poem-${width}.png`, fullPage: true });
    await context.close();
  });

  it("sets a book's preview page with hanging indents", async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/book/the-shape-of-belonging/preview`);
    await hydrated(page);
    if (width === 375) {
      const { starts, fontSize } = await rowsOfLine(page, "For everyone who set a plate down");
      expect(starts.length).toBeGreaterThan(1);
      const [first = 0, ...later] = starts;
      for (const start of later) expect(start - first).toBeCloseTo(2 * fontSize, 0);
    }
    const gaps = await gapsBetweenStanzas(page, "main article > div > p");
    expect(gaps).toHaveLength(1);
    await page.screenshot({ path: `test-results/verse-book-preview-${width}.png` });
    await context.close();
  });
});
