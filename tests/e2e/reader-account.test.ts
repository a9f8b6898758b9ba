import fs from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();

const poem = DEMO_POEMS[1];
if (!poem) throw new Error("demo poem missing");

const whispers = (page: Page) => page.locator("section[aria-labelledby=whispers-heading]");

async function shareWhisper(page: Page, text: string) {
  await page.getByRole("button", { name: "Write a whisper" }).click();
  await page.keyboard.type(text);
  await whispers(page).getByRole("button", { name: "Share" }).click();
  await whispers(page).getByText(text).waitFor();
}

/** The poem at a stanza of its own for each test, with its whispers open. */
async function openWhispers(context: BrowserContext, stanza: number) {
  const page = await site.open(context, `/poetry/${poem?.slug}#s-${stanza}`);
  await page.getByRole("button", { name: "Show whispers" }).click();
  await whispers(page)
    .getByText(`Whispers on Stanza ${stanza + 1}`)
    .waitFor();
  return page;
}

/** Each test walks several pages as two people; a busy machine needs more than the default. */
const FLOW_TIMEOUT_MS = 240_000;

describe("a reader's name", () => {
  it(
    "is offered after the first whisper (with Not now remembered), set on /account, and shown as 'Rowan A.'",
    async () => {
      const context = await site.signedIn("rowan@example.com");
      const page = await openWhispers(context, 0);
      const prompt = whispers(page).getByRole("status");
      // Never before a whisper is shared: the composer is as it always was.
      await page.getByRole("button", { name: "Write a whisper" }).waitFor();
      expect(await prompt.count()).toBe(0);
      await shareWhisper(page, "The table holds us.");
      await prompt.getByText(/signed “Anonymous”/).waitFor();
      await prompt.getByRole("button", { name: "Not now" }).click();
      await prompt.waitFor({ state: "detached" });
      await shareWhisper(page, "Still here.");
      await page.getByText("Whisper shared").first().waitFor();
      expect(await prompt.count()).toBe(0);

      // The footer's second line leads to the account; the Journal page does too.
      await page.getByRole("contentinfo").getByRole("link", { name: "Account" }).click();
      await page.getByRole("heading", { name: "Your account" }).waitFor();
      await hydrated(page);
      expect(await page.getByTestId("account-email").textContent()).toBe("rowan@example.com");
      const name = page.getByLabel("Display name");
      // Markup is a name like any other: kept as typed, shown as text.
      await name.fill("<b>Rowan</b> Ash");
      await page.getByRole("button", { name: "Save name" }).click();
      await page.getByText("Account saved").waitFor();
      expect(await page.getByTestId("name-preview").textContent()).toBe("<b>Rowan</b> A.");
      await name.fill("Rowan Ash");
      expect(await page.getByTestId("name-preview").textContent()).toBe("Rowan A.");
      await page.getByRole("button", { name: "Save name" }).click();
      await page.getByText("Account saved").waitFor();

      const again = await openWhispers(context, 0);
      await whispers(again).getByText("Rowan A.").first().waitFor();
      expect(await whispers(again).getByText("Anonymous").count()).toBe(0);
      const journal = await site.open(context, "/journal");
      await journal.getByRole("link", { name: "Your account" }).waitFor();
      await context.close();
    },
    FLOW_TIMEOUT_MS,
  );
});

describe("a reader's data and account", () => {
  it(
    "downloads the data, signs out everywhere, and deletes the account",
    async () => {
      const email = "leaving@example.com";
      const context = await site.signedIn(email);
      const other = await site.signedIn(email);
      const poemPage = await openWhispers(context, 1);
      await shareWhisper(poemPage, "Taking this with me.");

      const page = await site.open(context, "/account");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download my data" }).click(),
      ]);
      const data = JSON.parse(fs.readFileSync((await download.path()) ?? "", "utf8"));
      expect(data.account.email).toBe(email);
      expect(data.whispers[0]).toMatchObject({
        text: "Taking this with me.",
        poemSlug: poem?.slug,
      });

      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await page.getByText("Signed out everywhere").waitFor();
      await page.waitForURL(`${site.server.url}/`);
      // The other device is signed out too.
      const elsewhere = await site.open(other, "/account");
      await elsewhere.getByRole("link", { name: "Sign in" }).waitFor();
      await other.close();

      const back = await site.signedIn(email);
      const account = await site.open(back, "/account");
      await account.getByRole("button", { name: "Delete account" }).click();
      await account.getByRole("button", { name: "Yes, delete my account" }).click();
      await account.getByText("Account deleted").waitFor();
      await account.waitForURL(`${site.server.url}/`);
      const after = await openWhispers(back, 1);
      await whispers(after).getByRole("button", { name: "Write a whisper" }).waitFor();
      expect(await whispers(after).getByText("Taking this with me.").count()).toBe(0);
      await context.close();
      await back.close();
    },
    FLOW_TIMEOUT_MS,
  );
});

describe("blocking", () => {
  it(
    "the poet blocks a writer from the Whispers tab; the reader is told 'Your account cannot do this'",
    async () => {
      const reader = await site.signedIn("blocked@example.com");
      const readerPage = await openWhispers(reader, 2);
      await shareWhisper(readerPage, "A whisper before the block.");

      const poet = await site.signedIn("poet-blocks@example.com", { admin: true });
      const admin = await site.open(poet, "/admin");
      await admin.getByRole("tab", { name: "Whispers" }).click();
      const item = admin.getByRole("listitem").filter({ hasText: "A whisper before the block." });
      await item.getByText("blocked@example.com").waitFor();
      await item.getByRole("button", { name: "Block writer blocked@example.com" }).click();
      await admin.getByText("Reader blocked").waitFor();
      await item.getByText("Writer blocked").waitFor();

      await readerPage.getByRole("button", { name: /^Echo/ }).first().click();
      await readerPage.getByText("Your account cannot do this").waitFor();
      const reloaded = await openWhispers(reader, 2);
      await whispers(reloaded).getByRole("button", { name: "Write a whisper" }).waitFor();
      expect(await whispers(reloaded).getByText("A whisper before the block.").count()).toBe(0);

      await item.getByRole("button", { name: "Unblock writer blocked@example.com" }).click();
      await admin.getByText("Reader unblocked").waitFor();
      const unblocked = await openWhispers(reader, 2);
      await whispers(unblocked).getByText("A whisper before the block.").waitFor();
      await reader.close();
      await poet.close();
    },
    FLOW_TIMEOUT_MS,
  );
});
