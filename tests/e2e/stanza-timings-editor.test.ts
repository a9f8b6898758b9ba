import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWav } from "../helpers/audio-files.ts";
import { launchBrowser, openAdminAsPoet } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * Marking where each stanza begins in the poem editor (docs/product/chapbook.md, The voice read
 * along): tapping 'Next stanza' at the reading's playhead, nudging by 0.1 s, and dragging a
 * stanza's marker on the waveform, then saving, read back through the API. The playhead is moved
 * by seeking the reading, never by waiting for it to play.
 */
const TITLE = "Three Bells at Evening";
const SLUG = "three-bells-at-evening";
const READING_SECONDS = 8;

let server: RunningServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;
let readingFile: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ admin, page } = await openAdminAsPoet(browser, server));
  readingFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ev-timings-")), "reading.wav");
  fs.writeFileSync(readingFile, createWav(READING_SECONDS));
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
  await server?.stop();
});

/** The editor's own audio element: the playhead 'Next stanza' reads. */
const seekReading = (seconds: number) =>
  page.evaluate(
    (time) =>
      new Promise<void>((resolve) => {
        const audio = document.querySelector<HTMLAudioElement>(
          'audio[aria-label="The reading to time"]',
        );
        if (!audio) throw new Error("no reading in the editor");
        audio.addEventListener("seeked", () => resolve(), { once: true });
        audio.currentTime = time;
      }),
    seconds,
  );

const markedTime = async (stanza: number) => {
  const text = await page.getByText(new RegExp(`^Stanza ${stanza}: `)).textContent();
  return Number(/: ([\d.]+) s/.exec(text ?? "")?.[1]);
};

describe("marking stanza timings in the editor", () => {
  it("taps, nudges and drags each stanza's start, and saves the times with the poem", async () => {
    await page.getByRole("button", { name: "Add New Poem" }).click();
    const created = page.getByRole("form", { name: "New Poem" });
    await created.getByLabel("Title").fill(TITLE);
    await created
      .getByLabel("Stanzas")
      .fill("The first bell\nacross the water\n\nThe second bell\n\nThe third bell, late");
    const chooser = page.waitForEvent("filechooser");
    await created.getByRole("button", { name: "Upload audio" }).click();
    await (await chooser).setFiles(readingFile);
    await page.getByText("Audio uploaded successfully").waitFor();
    await created.getByRole("checkbox").first().check();
    await created.getByRole("button", { name: "Publish now" }).click();
    await page.getByText("Poem created successfully").waitFor();
    await created.waitFor({ state: "detached" });

    await page.getByRole("button", { name: `Edit ${TITLE}` }).click();
    const form = page.getByRole("form", { name: "Edit Poem" });
    const timings = form.getByRole("group", { name: "Stanza timings" });
    // The reading's length, which the save sends with the times, is read as it loads.
    await page.waitForFunction(
      () =>
        (document.querySelector<HTMLAudioElement>('audio[aria-label="The reading to time"]')
          ?.readyState ?? 0) >= 1,
    );

    for (const time of [0, 2.5, 5]) {
      await seekReading(time);
      await timings.getByRole("button", { name: "Next stanza" }).click();
    }
    await timings.getByText("3 of 3 stanzas marked").waitFor();
    expect(await timings.getByRole("button", { name: "Next stanza" }).isDisabled()).toBe(true);
    expect([await markedTime(1), await markedTime(2), await markedTime(3)]).toEqual([0, 2.5, 5]);

    await timings.getByRole("button", { name: "Stanza 2 0.1 s later" }).click();
    await timings.getByRole("button", { name: "Stanza 2 0.1 s later" }).click();
    await timings.getByRole("button", { name: "Stanza 3 0.1 s earlier" }).click();
    expect([await markedTime(2), await markedTime(3)]).toEqual([2.7, 4.9]);

    // The waveform comes with its markers only when asked for.
    await timings.getByRole("button", { name: "Show the waveform" }).click();
    const waveform = timings.getByRole("figure", { name: /waveform/ });
    const third = waveform.locator('[part~="stanza-2"] [part~="region-content"]');
    await third.waitFor();
    const width = (await waveform.boundingBox())?.width ?? 0;
    const grip = await third.boundingBox();
    if (!grip || width === 0) throw new Error("the waveform has no size");
    // One second later: the marker's share of the waveform's width.
    const oneSecond = width / READING_SECONDS;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    for (let step = 1; step <= 10; step++) {
      await page.mouse.move(
        grip.x + grip.width / 2 + (oneSecond * step) / 10,
        grip.y + grip.height / 2,
      );
    }
    await page.mouse.up();
    await expect.poll(() => markedTime(3)).not.toBe(4.9);
    const dragged = await markedTime(3);
    expect(dragged).toBeGreaterThanOrEqual(5.7);
    expect(dragged).toBeLessThanOrEqual(6.1);
    // Dragging one marker moved no other.
    expect([await markedTime(1), await markedTime(2)]).toEqual([0, 2.7]);

    await page.screenshot({ path: "test-results/stanza-timings-editor-1280.png", fullPage: true });
    await page.setViewportSize({ width: 375, height: 667 });
    await timings.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/stanza-timings-editor-375.png" });
    await page.setViewportSize({ width: 1280, height: 900 });
    const results = await new AxeBuilder({ page })
      .include('[aria-label="Stanza timings"], fieldset')
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);

    await form.getByRole("button", { name: "Update" }).click();
    await page.getByText("Poem updated successfully").waitFor();

    const saved = await page.evaluate(async (slug) => {
      const list = (await (await fetch("/api/admin/poems")).json()) as Array<{
        id: number;
        slug: string;
      }>;
      const id = list.find((poem) => poem.slug === slug)?.id;
      return (await fetch(`/api/admin/poems/${id}`)).json() as Promise<{
        stanzaTimings: number[] | null;
        readingDuration: number | null;
      }>;
    }, SLUG);
    expect(saved.stanzaTimings).toEqual([0, 2.7, dragged]);
    expect(saved.readingDuration).toBeCloseTo(READING_SECONDS, 1);
  });
});
