import fs from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

/** Chromium from CHROMIUM_PATH, else Debian's, else the one inside @sparticuz/chromium. */
export async function chromiumPath(): Promise<string> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  if (fs.existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  const sparticuz = (await import("@sparticuz/chromium")).default;
  return sparticuz.executablePath();
}

/**
 * A headless Chromium with the flags this closed network needs. Not @sparticuz's own default
 * arguments: they turn web security off, which would hide real failures.
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_FLAGS });
}

/** Resolves once React has hydrated the page (the root sets data-hydrated), so clicks do work. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}
