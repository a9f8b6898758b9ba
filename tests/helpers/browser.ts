import fs from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

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

/**
 * The poet's Content Management page, hydrated, in a context of its own signed in by the CLI's
 * login link (close the context when done).
 */
export async function openAdminAsPoet(
  browser: Browser,
  server: { url: string; cli: (...args: string[]) => Promise<{ stdout: string }> },
): Promise<{ admin: BrowserContext; page: Page }> {
  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const link = await server.cli("login-link", "poet@example.com", "--admin");
  const page = await admin.newPage();
  await page.goto(link.stdout.trim());
  await page.goto(`${server.url}/admin`);
  await hydrated(page);
  return { admin, page };
}
