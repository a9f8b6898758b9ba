import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import {
  type SmtpCapture,
  startSmtpCapture,
  subscribeAndReadConfirmation,
} from "../helpers/smtp.ts";

let smtp: SmtpCapture;
const SUBSCRIBERS = ["first@example.com", "second@example.com"];

beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp?.close());
const site = setUpBrowserSite(() => ({ SMTP_URL: smtp.url }));

/** Subscribes through the API and opens the emailed confirmation link, as a reader would. */
async function verifiedSubscriber(email: string) {
  const mail = await subscribeAndReadConfirmation(smtp, site.server.url, email);
  const link = /https?:\/\/\S+\/api\/subscribe\/verify\?\S+/.exec(mail.parsed.text ?? "")?.[0];
  expect((await fetch(link ?? "", { redirect: "manual" })).headers.get("location")).toBe(
    "/subscribe/confirmed?verified=1",
  );
}

beforeAll(async () => {
  for (const email of SUBSCRIBERS) await verifiedSubscriber(email);
});

describe("the digest admin page", () => {
  let admin: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    admin = await site.signedIn("poet@example.com", { admin: true });
    await admin.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: site.server.url,
    });
    page = await site.open(admin, "/admin/digest");
  });
  afterAll(() => admin?.close());

  it("generates a preview from the site, copies its HTML and opens it in a new tab", async () => {
    await page.getByRole("heading", { name: "Weekly Ember Digest" }).waitFor();
    await page.getByRole("button", { name: "Generate Preview" }).click();
    await page.getByText("HTML preview is ready.").waitFor();
    const preview = page.frameLocator("iframe[title='Digest preview']");
    await preview.getByText("Ember of the Week").waitFor();

    await page.getByRole("button", { name: "Copy HTML" }).click();
    await page.getByText("HTML copied").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^<!doctype html>/);
    expect(copied).toContain("Ember of the Week");

    const [tab] = await Promise.all([
      admin.waitForEvent("page"),
      page.getByRole("button", { name: "Open Preview" }).click(),
    ]);
    await tab.getByText("Ember of the Week").waitFor();
    await tab.close();
  });

  it("downloads the verified subscribers as CSV", async () => {
    const csv = admin.waitForEvent("response", (response) =>
      response.url().endsWith("/api/admin/subscribers.csv"),
    );
    await page.getByRole("button", { name: "Download Subscribers CSV" }).click();
    await page.getByText("Subscribers CSV is being downloaded.").waitFor();
    const response = await csv;
    expect(response.status()).toBe(200);
    expect(response.headers()["content-disposition"]).toContain("attachment");
  });

  it("sends the digest after a confirmation, and shows the run as it completes", async () => {
    const since = smtp.messages.length;
    await page.getByLabel("Subject").fill("Embers of the week");
    await page.getByRole("button", { name: "Send Digest" }).click();
    const dialog = page.getByRole("dialog", { name: "Send the digest now?" });
    await dialog.getByText("goes to 2 verified subscribers").waitFor();
    await dialog.getByRole("button", { name: "Send to subscribers" }).click();
    await page.getByText("Sending to 2 subscribers.").waitFor();
    await page.getByText("2 of 2 sent").waitFor({ timeout: 20_000 });
    for (const email of SUBSCRIBERS) {
      const mail = await smtp.waitFor(email, since);
      expect(mail.parsed.subject).toBe("Embers of the week");
    }
    await page.screenshot({ path: "test-results/admin-digest-1280.png", fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: "test-results/admin-digest-375.png", fullPage: true });
  });
});

// Two minutes: a sign-in and a role change go through the CLI, each a process of its own.
it("sends the poet to sign in when the session has ended, as every admin page does", async () => {
  const poet = await site.signedIn("second-poet@example.com", { admin: true });
  const page = await site.open(poet, "/admin/digest");
  await page.getByRole("heading", { name: "Weekly Ember Digest" }).waitFor();
  await page.waitForLoadState("networkidle");
  // A role change ends every session of the user.
  await site.server.cli("user:role", "second-poet@example.com", "USER");
  await page.getByLabel("Subject").fill("After the session");
  await page.getByRole("button", { name: "Send Digest" }).click();
  await page
    .getByRole("dialog", { name: "Send the digest now?" })
    .getByRole("button", { name: "Send to subscribers" })
    .click();
  await page.getByText("You are logged out. Logging in again...").waitFor();
  expect(await page.getByText("Send failed").count()).toBe(0);
  await page.waitForURL(/\/login\?returnTo=/);
  await poet.close();
}, 120_000);

it("sends a signed-in reader from /admin/digest home with 'Access denied'", async () => {
  const reader = await site.signedIn("reader@example.com");
  const page = await reader.newPage();
  await page.goto(`${site.server.url}/admin/digest`);
  await page.getByText("Admin access required.").waitFor();
  await page.waitForURL(`${site.server.url}/`);
  await reader.close();
});
