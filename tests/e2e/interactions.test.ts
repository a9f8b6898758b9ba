import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { LOCAL_JOURNAL_STORAGE_KEY } from "../../common/constants.ts";
import { DEMO_POEMS } from "../../server/db/demo/content.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();

const poem = DEMO_POEMS.find((candidate) => candidate.slug === "the-kitchen-table");
if (!poem) throw new Error("demo poem missing");

const openPoem = (context: BrowserContext, stanza = 0) =>
  site.open(context, `/poetry/${poem?.slug}#s-${stanza}`);

const whispers = (page: Page) => page.locator("section[aria-labelledby=whispers-heading]");

describe("as an anonymous reader", () => {
  it("asks to sign in for echoes and whispers, and sends nothing", async () => {
    const context = await site.browser.newContext();
    const page = await openPoem(context);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() !== "GET") posts.push(request.url());
    });
    await page.getByRole("button", { name: "Echo" }).click();
    await page.getByText("Sign in to add your echo").waitFor();
    await page.getByRole("button", { name: "Show whispers" }).click();
    await whispers(page).getByText("Whispers on Stanza 1").waitFor();
    await page.getByRole("button", { name: "Write a whisper" }).click();
    await page.keyboard.type("hello");
    await whispers(page).getByRole("button", { name: "Share" }).click();
    await page.getByText("Sign in to share your whisper").waitFor();
    expect(posts).toEqual([]);
    await context.close();
  });

  it("keeps saved stanzas in localStorage, newest first, at most 200", async () => {
    const context = await site.browser.newContext();
    const page = await openPoem(context, 1);
    await page.evaluate(
      ([key]) => {
        const old = Array.from({ length: 200 }, (_, i) => ({
          poemId: 999,
          poemSlug: "old-poem",
          poemTitle: "Old",
          stanzaIndex: i,
          stanzaText: `old ${i}`,
          timestamp: 1_000_000 + i,
          synced: false,
        }));
        localStorage.setItem(key as string, JSON.stringify(old));
      },
      [LOCAL_JOURNAL_STORAGE_KEY],
    );
    await page.getByRole("button", { name: "Save to journal" }).click();
    await page.getByText("This verse has been saved locally.").waitFor();
    const stored = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? "[]"),
      LOCAL_JOURNAL_STORAGE_KEY,
    );
    expect(stored).toHaveLength(200);
    expect(stored[0]).toMatchObject({
      poemSlug: poem?.slug,
      poemTitle: poem?.title,
      stanzaIndex: 1,
      stanzaText: poem?.stanzas[1],
      synced: false,
      timestamp: expect.any(Number),
      poemId: expect.any(Number),
    });
    expect(stored.at(-1)).toMatchObject({ stanzaIndex: 1, poemSlug: "old-poem" });
    await page.getByRole("button", { name: "Remove from journal" }).click();
    await page.getByText("This stanza has been removed from your local journal.").waitFor();
    await context.close();
  });

  it("marks the stanza a slow save was made on, not the one the reader has moved to", async () => {
    const context = await site.browser.newContext();
    // What a press does loads with the first press: held here as on a slow connection.
    let releaseToggles = () => {};
    const togglesHeld = new Promise<void>((resolve) => {
      releaseToggles = resolve;
    });
    await context.route("**/assets/stanza-toggles-*.js", async (route) => {
      await togglesHeld;
      await route.continue();
    });
    const page = await openPoem(context, 0);
    await page.getByRole("button", { name: "Save to journal" }).click();
    await page.getByRole("button", { name: "Go to stanza 3" }).click();
    // A press on another stanza while the first is on its way is the reader's own.
    await page.getByRole("button", { name: "Save to journal" }).click();
    await page.getByRole("button", { name: "Go to stanza 2" }).click();
    releaseToggles();
    await page.waitForFunction(
      (key) => JSON.parse(localStorage.getItem(key) ?? "[]").length === 2,
      LOCAL_JOURNAL_STORAGE_KEY,
    );
    await page.getByRole("button", { name: "Save to journal" }).waitFor();
    await page.getByRole("button", { name: "Go to stanza 1" }).click();
    await page.getByRole("button", { name: "Remove from journal" }).waitFor();
    await page.getByRole("button", { name: "Go to stanza 3" }).click();
    await page.getByRole("button", { name: "Remove from journal" }).waitFor();
    await context.close();
  });

  it("ignores malformed localStorage content without breaking the page", async () => {
    const context = await site.browser.newContext();
    const page = await openPoem(context);
    await page.evaluate((key) => localStorage.setItem(key, "{not json"), LOCAL_JOURNAL_STORAGE_KEY);
    await page.goto(`${site.server.url}/journal`);
    await hydrated(page);
    await page.getByText("Your Journal Awaits").waitFor();
    await context.close();
  });
});

describe("as a signed-in reader", () => {
  it("syncs the local journal one second after signing in and clears it", async () => {
    const context = await site.browser.newContext();
    const page = await openPoem(context, 0);
    await page.getByRole("button", { name: "Save to journal" }).click();
    await page.getByRole("button", { name: "Go to stanza 3" }).click();
    await page.getByRole("button", { name: "Save to journal" }).click();
    // A save reaches this browser's journal once its module has loaded: both are there before
    // the page is left.
    await page.waitForFunction(
      (key) => JSON.parse(localStorage.getItem(key) ?? "[]").length === 2,
      LOCAL_JOURNAL_STORAGE_KEY,
    );
    const link = await site.server.cli("login-link", "syncer@example.com");
    await page.goto(link.stdout.trim());
    await page.getByText("2 local entries synced to your cloud journal.").waitFor();
    expect(
      await page.evaluate(
        (key) => JSON.parse(localStorage.getItem(key) ?? "[]"),
        LOCAL_JOURNAL_STORAGE_KEY,
      ),
    ).toEqual([]);
    await page.goto(`${site.server.url}/journal`);
    await hydrated(page);
    expect(await page.getByText("Cloud", { exact: true }).count()).toBe(2);
    await page.getByText("Stanza 3", { exact: false }).first().waitFor();
    expect(await page.getByText("Local", { exact: true }).count()).toBe(0);
    await context.close();
  });

  // Far east and far west of the server's UTC: at any hour, one of them is on another day.
  it.each(["Pacific/Kiritimati", "Pacific/Pago_Pago"])(
    "dates the cloud journal in the reader's own time zone (%s), with nothing for React to discard",
    async (timezoneId) => {
      const context = await site.signedIn(`${timezoneId.replace(/\W/g, "-")}@example.com`, {
        timezoneId,
      });
      const page = await openPoem(context, 0);
      // The button turns at once; the save is stored once the server answers, and leaving the
      // page before that would cancel it.
      const stored = page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === "/api/journal" &&
          response.request().method() === "POST",
      );
      await page.getByRole("button", { name: "Save to journal" }).click();
      await page.getByRole("button", { name: "Remove from journal" }).waitFor();
      expect((await stored).ok()).toBe(true);
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${site.server.url}/journal`);
      await hydrated(page);
      const readersToday = new Intl.DateTimeFormat("en-US", {
        timeZone: timezoneId,
        year: "numeric",
        month: "long",
        day: "numeric",
      }).format(new Date());
      await page.getByText(`Saved ${readersToday} • Stanza 1`).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("echoes at once, toasts only when adding, and removes on a later click", async () => {
    const context = await site.signedIn("echoer@example.com");
    const page = await openPoem(context, 2);
    const echo = page.getByRole("button", { name: "Echo" });
    const count = page.getByTestId("echo-count");
    await page.waitForLoadState("networkidle");
    const before = Number(await count.innerText());
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/poems/*/echo", async (route) => {
      await held;
      await route.continue();
    });
    await echo.click();
    // Optimistic: the count and pressed state change before the server answers.
    expect(Number(await count.innerText())).toBe(before + 1);
    expect(await echo.getAttribute("aria-pressed")).toBe("true");
    release();
    await page.getByText("Your appreciation has been quietly shared.").waitFor();
    await page.unroute("**/api/poems/*/echo");
    await page.waitForTimeout(1200);
    await echo.click();
    await page.locator("button[aria-pressed=false]", { hasText: "Echo" }).waitFor();
    expect(Number(await count.innerText())).toBe(before);
    await context.close();
  });

  it("rolls an echo back when it fails", async () => {
    const context = await site.signedIn("failing@example.com");
    const page = await openPoem(context);
    await page.waitForLoadState("networkidle");
    const count = page.getByTestId("echo-count");
    const before = await count.innerText();
    await page.route("**/api/poems/*/echo", (route) =>
      route.fulfill({ status: 500, body: '{"message":"boom"}' }),
    );
    await page.getByRole("button", { name: "Echo" }).click();
    await page.getByText("Your echo couldn't be saved right now.").waitFor();
    expect(await count.innerText()).toBe(before);
    await context.close();
  });

  it("writes a whisper with the counter and Share rules, and deletes it", async () => {
    const context = await site.signedIn("whisperer@example.com");
    const page = await openPoem(context, 1);
    await page.getByRole("button", { name: "Show whispers" }).click();
    const panel = whispers(page);
    await panel.getByText("Whispers on Stanza 2").waitFor();
    await panel.getByText("Quiet reflections and gentle thoughts shared by readers").waitFor();
    await page.getByRole("button", { name: "Hide whispers" }).waitFor();
    await panel.getByRole("button", { name: "Write a whisper" }).click();
    const share = panel.getByRole("button", { name: "Share" });
    await panel.getByText("280 characters remaining").waitFor();
    expect(await share.isDisabled()).toBe(true);
    await page.keyboard.type("   ");
    expect(await share.isDisabled()).toBe(true);
    await panel.getByRole("button", { name: "Cancel" }).click();
    await panel.getByRole("button", { name: "Write a whisper" }).click();
    expect(await panel.getByRole("textbox").inputValue()).toBe("");
    await panel.getByRole("textbox").fill("x".repeat(265));
    const remaining = panel.getByText("15 characters remaining");
    expect(await remaining.getAttribute("class")).toContain("font-semibold");
    await panel.getByRole("textbox").fill("x".repeat(300));
    await panel.getByText("0 characters remaining").waitFor();
    await panel.getByRole("textbox").fill("A whisper <b>in plain text</b>");
    await share.click();
    await page.getByText("Your reflection has been added to this stanza.").waitFor();
    await panel.getByText("A whisper <b>in plain text</b>").waitFor();
    await panel.getByRole("button", { name: "Write a whisper" }).waitFor();
    await panel.getByRole("button", { name: "Delete whisper" }).click();
    await page.getByText("Your whisper has been removed.").waitFor();
    expect(await panel.getByText("A whisper <b>in plain text</b>").count()).toBe(0);
    await context.close();
  });

  it("shows delete only on the reader's own whispers", async () => {
    const author = await site.signedIn("author@example.com");
    const authorPage = await openPoem(author, 3);
    await authorPage.getByRole("button", { name: "Show whispers" }).click();
    await whispers(authorPage).getByRole("button", { name: "Write a whisper" }).click();
    await whispers(authorPage).getByRole("textbox").fill("Mine alone");
    await whispers(authorPage).getByRole("button", { name: "Share" }).click();
    await whispers(authorPage).getByText("Mine alone").waitFor();
    const reader = await site.signedIn("reader2@example.com");
    const readerPage = await openPoem(reader, 3);
    await readerPage.getByRole("button", { name: "Show whispers" }).click();
    await whispers(readerPage).getByText("Mine alone").waitFor();
    expect(await whispers(readerPage).getByRole("button", { name: "Delete whisper" }).count()).toBe(
      0,
    );
    await author.close();
    await reader.close();
  });

  it("sends an expired session back to sign-in after a second", async () => {
    const context = await site.signedIn("expiring@example.com");
    const page = await openPoem(context);
    await page.waitForLoadState("networkidle");
    // A role change ends every session of the user.
    await site.server.cli("user:role", "expiring@example.com", "ADMIN");
    await page.getByRole("button", { name: "Echo" }).click();
    await page.getByText("Your session has expired. Redirecting to sign in...").waitFor();
    await page.waitForURL(/\/login\?returnTo=/);
    await context.close();
  });
});
