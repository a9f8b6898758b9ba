import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWav } from "../helpers/audio-files.ts";
import { hydrated, launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

const TITLE = "Bells Across the Harbour";
const SLUG = "bells-across-the-harbour";
const BROKEN_TITLE = "A Reading Gone Quiet";
const BROKEN_SLUG = "a-reading-gone-quiet";

let server: RunningServer;
let browser: Browser;
let admin: Page;
let readingFile: string;

/** Adds a poem in the admin form, its audio uploaded from a file or typed as a path. */
async function addPoem(title: string, audio: { file: string } | { url: string }) {
  await admin.getByRole("button", { name: "Add New Poem" }).click();
  const form = admin.getByRole("form", { name: "New Poem" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Stanzas").fill("The bells rang out\nacross the water\n\nand we listened");
  if ("file" in audio) {
    const chooser = admin.waitForEvent("filechooser");
    await form.getByRole("button", { name: "Upload audio" }).click();
    await (await chooser).setFiles(audio.file);
    await admin.getByText("Audio uploaded successfully").waitFor();
    expect(await form.getByLabel("Audio URL").inputValue()).toMatch(
      /^\/objects\/audio\/[0-9a-f-]{36}$/,
    );
    await admin.screenshot({ path: "test-results/poem-form-audio-1280.png", fullPage: true });
  } else {
    await form.getByLabel("Audio URL").fill(audio.url);
  }
  await form.getByRole("checkbox").first().check();
  await form.getByRole("button", { name: "Publish now" }).click();
  await admin.getByText("Poem created successfully").waitFor();
  await form.waitFor({ state: "detached" });
}

/**
 * A reader's page at `width`, counting layout shifts as CLS does (not those just after the
 * reader's own input) and every error the page logs.
 */
async function readerPage(width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.addInitScript(() => {
    const seen = { shifts: 0 };
    Object.assign(window, { seen });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const shift = entry as unknown as { value: number; hadRecentInput: boolean };
        if (!shift.hadRecentInput) seen.shifts += shift.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  return { page, errors, context };
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  admin = await context.newPage();
  const link = await server.cli("login-link", "poet@example.com", "--admin");
  await admin.goto(link.stdout.trim());
  await admin.goto(`${server.url}/admin`);
  await hydrated(admin);
  readingFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ev-audio-")), "reading.wav");
  fs.writeFileSync(readingFile, createWav(4));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the poet's voice", () => {
  it("the admin uploads a reading in the poem form; its page offers it, silent until asked", async () => {
    await admin.getByRole("heading", { name: "Content Management" }).waitFor();
    await addPoem(TITLE, { file: readingFile });

    // In the HTML every anonymous reader gets (the second answer comes from the page cache).
    for (let request = 0; request < 2; request++) {
      const html = await (await fetch(`${server.url}/poetry/${SLUG}`)).text();
      expect(html).toMatch(
        /<details[^>]*><summary[^>]*>.*Listen<\/summary><audio [^>]*preload="none"/,
      );
      expect(html).toContain(`aria-label="Listen to ${TITLE}"`);
      expect(html).not.toMatch(/<audio [^>]*autoplay/i);
    }

    for (const width of [375, 1280]) {
      const { page, errors, context } = await readerPage(width);
      await page.goto(`${server.url}/poetry/${SLUG}`);
      await hydrated(page);
      const listen = page.getByText("Listen", { exact: true });
      const player = page.getByLabel(`Listen to ${TITLE}`);
      expect(await player.isVisible()).toBe(false);
      await page.screenshot({ path: `test-results/poem-audio-closed-${width}.png` });
      const firstStanza = page.getByText("The bells rang out");
      const stanzaTop = (await firstStanza.boundingBox())?.y;

      await listen.click();
      await player.waitFor();
      expect(
        await player.evaluate((audio: HTMLAudioElement) => ({
          preload: audio.preload,
          controls: audio.controls,
          paused: audio.paused,
          autoplay: audio.autoplay,
          // Nothing fetched yet: preload="none" is honoured.
          readyState: audio.readyState,
          isFocused: document.activeElement === audio,
        })),
      ).toEqual({
        preload: "none",
        controls: true,
        paused: true,
        autoplay: false,
        readyState: 0,
        isFocused: true,
      });
      // The player took the button's place: the poem below did not move.
      expect((await firstStanza.boundingBox())?.y).toBe(stanzaTop);
      expect(await page.evaluate(() => (window as unknown as { seen: unknown }).seen)).toEqual({
        shifts: 0,
      });
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      expect(results.violations.map((violation) => violation.id)).toEqual([]);
      await page.screenshot({ path: `test-results/poem-audio-${width}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("is reached and played from the keyboard, the recording served by ranges", async () => {
    const { page, errors, context } = await readerPage(1280);
    const ranges: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/objects/audio/")) ranges.push(request.headers().range ?? "");
    });
    await page.goto(`${server.url}/poetry/${SLUG}`);
    await hydrated(page);
    const player = page.getByLabel(`Listen to ${TITLE}`);
    await page.getByText("Listen", { exact: true }).waitFor();
    // Tab through the page, twice round at most: the button is in the order wherever it sits.
    const stops = await page.evaluate(
      () => document.querySelectorAll("a[href], button, summary, input, select, textarea").length,
    );
    let focused = "";
    for (let press = 0; press < 2 * (stops + 1) && focused !== "Listen"; press++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    }
    expect(focused, "the last element Tab reached").toBe("Listen");
    await page.keyboard.press("Enter");
    await player.waitFor();
    expect(await player.evaluate((audio) => document.activeElement === audio)).toBe(true);
    await page.keyboard.press("Space");
    await page.waitForFunction(
      () => (document.querySelector("audio")?.currentTime ?? 0) > 0.2,
      undefined,
      { timeout: 10_000 },
    );
    await page.keyboard.press("Space");
    expect(await player.evaluate((audio: HTMLAudioElement) => audio.paused)).toBe(true);
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges[0]).toMatch(/^bytes=0-/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says politely that a broken recording cannot play, and the page stays whole", async () => {
    await addPoem(BROKEN_TITLE, { url: "/objects/audio/00000000-0000-4000-8000-000000000000" });
    const { page, errors, context } = await readerPage(375);
    await page.goto(`${server.url}/poetry/${BROKEN_SLUG}`);
    await hydrated(page);
    await page.getByText("Listen", { exact: true }).click();
    await page.getByLabel(`Listen to ${BROKEN_TITLE}`).waitFor();
    await page.keyboard.press("Space");
    const status = page.getByRole("status").filter({ hasText: "cannot be played" });
    await status.waitFor();
    expect(await status.textContent()).toBe("This recording cannot be played right now.");
    await page.getByRole("heading", { level: 1, name: BROKEN_TITLE }).waitFor();
    await page.getByText("The bells rang out").waitFor();
    expect(await page.evaluate(() => (window as unknown as { seen: unknown }).seen)).toEqual({
      shifts: 0,
    });
    await page.screenshot({ path: "test-results/poem-audio-broken-375.png", fullPage: true });
    // The browser logs the failed fetch of the recording itself; nothing else may be logged.
    expect(errors.filter((error) => !error.includes("404"))).toEqual([]);
    await context.close();
  });
});
