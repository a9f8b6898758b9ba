import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";

/**
 * Signing in keeps the reader's place: from a stanza (#s-N), through the sign-in page, the
 * emailed link and its Continue, back to that stanza. The signed-out toasts of an echo and a
 * whisper keep their words and offer the way to sign in.
 */
let server: RunningServer;
let browser: Browser;
let smtp: SmtpCapture;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  [server, browser] = await Promise.all([startServer({ SMTP_URL: smtp.url }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

/** From the sign-in page: ask for a link by email, open it, press Continue. */
async function finishSigningIn(page: Page, email: string) {
  await page.waitForURL(/\/login\?returnTo=%2Fpoetry%2Fthe-kitchen-table%23s-2$/);
  await hydrated(page);
  const since = smtp.messages.length;
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  const mail = await smtp.waitFor(email, since);
  const link = /https?:\/\/\S+\/login\/verify\?\S+/.exec(mail.parsed.text ?? "")?.[0] ?? "";
  await page.goto(link);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${server.url}/poetry/the-kitchen-table#s-2`);
  await hydrated(page);
  await page.getByText(/^3 of \d+$/).waitFor();
}

describe.each([
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
])("signing in from a stanza at $width px", (viewport) => {
  it("the echo toast's Sign in leads back to the stanza", async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${server.url}/poetry/the-kitchen-table#s-2`);
    await hydrated(page);
    await page.getByRole("button", { name: /^Echo/ }).click();
    const toast = page.getByRole("status").filter({ hasText: "Sign in to add your echo" });
    await toast.getByRole("link", { name: "Sign in" }).waitFor();
    await page.screenshot({ path: `test-results/sign-in-toast-echo-${viewport.width}.png` });
    await toast.getByRole("link", { name: "Sign in" }).click();
    await finishSigningIn(page, `echo-${viewport.width}@example.com`);
    expect(await page.getByRole("button", { name: /^Echo/ }).isVisible()).toBe(true);
    await page.screenshot({ path: `test-results/sign-in-back-at-stanza-${viewport.width}.png` });
    await context.close();
  });

  it("the whisper toast offers sign-in, and the header's Login keeps the stanza too", async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // Opened at the first stanza, moved to the third: the place is the one at the click.
    await page.goto(`${server.url}/poetry/the-kitchen-table`);
    await hydrated(page);
    await page.getByRole("button", { name: "Go to stanza 3" }).click();
    await page.waitForURL(/#s-2$/);
    await page.getByRole("button", { name: "Show whispers" }).click();
    await page.getByRole("button", { name: "Write a whisper" }).click();
    await page.getByRole("textbox", { name: "Your whisper" }).fill("A quiet line.");
    await page.getByRole("button", { name: "Share", exact: true }).last().click();
    const toast = page.getByRole("status").filter({ hasText: "Sign in to share your whisper" });
    expect(await toast.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      "/api/login?returnTo=%2Fpoetry%2Fthe-kitchen-table%23s-2",
    );
    await page.screenshot({ path: `test-results/sign-in-toast-whisper-${viewport.width}.png` });

    if (viewport.width < 768) await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("link", { name: "Login" }).first().click();
    await finishSigningIn(page, `whisper-${viewport.width}@example.com`);
    await context.close();
  });
});
