import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READING_THEMES } from "../../app/lib/reading-settings.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { hydrated, launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * The voice read along (docs/product/chapbook.md): the demo poem's timed reading moves the stanza
 * viewer, follows the reader's moves, starts from a stanza link, and carries its stanzas as
 * captions. Time is moved by seeking the reading, never by waiting for it.
 */
const POEM = DEMO_POEMS.find((poem) => poem.reading);
if (!POEM?.reading) throw new Error("the demo has no timed reading");
const TIMINGS = POEM.reading.stanzaTimings;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openPoem(hash = ""): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/poetry/${POEM?.slug}${hash}`);
  await hydrated(page);
  return page;
}

const reading = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector("audio");
    return { time: audio?.currentTime ?? -1, paused: audio?.paused ?? true };
  });
const shownStanza = (page: Page) => page.evaluate(() => window.location.hash);

describe("the voice read along", () => {
  it("moves the viewer to each stanza as its time comes, and the voice to the stanza the reader moves to", async () => {
    const page = await openPoem();
    await page.getByText("Listen", { exact: true }).click();
    await page.evaluate(() => document.querySelector("audio")?.play());
    await page.waitForFunction(() => !document.querySelector("audio")?.paused);
    for (const [stanza, start] of TIMINGS.entries()) {
      await page.evaluate((time) => {
        const audio = document.querySelector("audio");
        if (audio) audio.currentTime = time;
      }, start + 0.2);
      await page.waitForFunction((hash) => window.location.hash === hash, `#s-${stanza}`);
      const firstLine = stanzaLines(POEM?.stanzas[stanza] ?? "")[0] ?? "";
      await expect.poll(() => page.getByText(firstLine).isVisible()).toBe(true);
    }
    await page.screenshot({ path: "test-results/read-along-1280.png" });

    // The reader goes back a stanza: the voice goes there too.
    await page.locator("body").press("ArrowLeft");
    await page.waitForFunction(
      (start) => Math.abs((document.querySelector("audio")?.currentTime ?? 0) - start) < 0.5,
      TIMINGS[1] ?? 0,
    );
    expect(await shownStanza(page)).toBe("#s-1");
    await page.close();
  });

  it("offers 'Listen from here' at a stanza link, starting the voice at that stanza", async () => {
    const page = await openPoem("#s-2");
    await page.getByRole("button", { name: "Listen from here" }).click();
    await page.waitForFunction(() => !document.querySelector("audio")?.paused);
    const { time } = await reading(page);
    expect(time).toBeGreaterThanOrEqual((TIMINGS[2] ?? 0) - 0.05);
    expect(time).toBeLessThan((TIMINGS[2] ?? 0) + 1.5);
    expect(await shownStanza(page)).toBe("#s-2");
    await page.close();
  });

  it("carries the stanzas as the reading's captions, one cue per stanza at its time", async () => {
    const page = await openPoem();
    await page.getByText("Listen", { exact: true }).click();
    const cues = await page.waitForFunction(() => {
      const track = document.querySelector("audio")?.textTracks[0];
      if (!track) return undefined;
      track.mode = "hidden";
      const list = track.cues;
      return list && list.length > 0
        ? Array.from(list, (cue) => ({
            start: cue.startTime,
            text: (cue as VTTCue).text,
          }))
        : undefined;
    });
    expect(await cues.jsonValue()).toEqual(
      POEM?.stanzas.map((stanza, index) => ({
        start: TIMINGS[index],
        text: stanzaLines(stanza).join("\n"),
      })),
    );
    await page.close();
  });

  it("offers a stanza's part of the reading on its share page, starting at that stanza", async () => {
    const stanza = 1;
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/share/poem/${POEM?.slug}?s=${stanza}`);
      const player = page.getByLabel(
        `Listen to stanza ${stanza + 1} of ${POEM?.title}, read by the poet`,
      );
      await player.waitFor();
      // The page stays to offer it: nothing sends the reader on.
      expect(new URL(page.url()).pathname).toBe(`/share/poem/${POEM?.slug}`);
      for (const theme of READING_THEMES) {
        await page.evaluate((name) => {
          document.documentElement.dataset.theme = name;
        }, theme);
        await page.screenshot({ path: `test-results/share-excerpt-${theme}-${width}.png` });
        const results = await new AxeBuilder({ page })
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
          .analyze();
        expect(results.violations.map((violation) => violation.id)).toEqual([]);
      }
      await player.evaluate((audio: HTMLAudioElement) => audio.play());
      await page.waitForFunction(() => !document.querySelector("audio")?.paused);
      const { time } = await reading(page);
      expect(time).toBeGreaterThanOrEqual((TIMINGS[stanza] ?? 0) - 0.05);
      expect(time).toBeLessThan(TIMINGS[stanza + 1] ?? Number.POSITIVE_INFINITY);
      await context.close();
    }
  });
});
