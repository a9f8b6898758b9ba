import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUEST_VOICES } from "../../common/guest-voices.ts";
import { DEMO_BOOK } from "../../server/db/demo/embers-and-book.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

let server: RunningServer;
let empty: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, empty, browser] = await Promise.all([
    startServer(),
    startServer({ DEMO_CONTENT: "false" }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), empty?.stop()]);
});

async function open(
  base: RunningServer,
  path: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  await page.goto(`${base.url}${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  return page;
}

describe("home", () => {
  it("shows the hero, the Ember of the Week, the three themes, the sections and three guest voices", async () => {
    const page = await open(server, "/");
    await page.getByRole("heading", { name: "Ember of the Week" }).waitFor();
    const themes = page.locator("section[aria-labelledby=current-themes] a");
    expect(
      await themes.evaluateAll((links) => links.map((link) => link.getAttribute("href"))),
    ).toEqual(["/themes/belonging", "/themes/becoming", "/themes/sacred"]);
    expect(await page.locator("section[aria-labelledby=guest-voices] li").count()).toBe(3);
    await page.getByRole("link", { name: "Enter the Collection" }).click();
    await page.waitForURL(`${server.url}/poetry`);
    await page.context().close();
  });
});

describe("daily ember and archive", () => {
  it("shows today's ember with its long date and copies it when sharing is unsupported", async () => {
    const page = await open(server, "/ember", {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await page.getByRole("heading", { name: "Daily Ember" }).waitFor();
    const longDate = new Intl.DateTimeFormat("en-US", {
      timeZone: "UTC",
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
    }).format(new Date());
    await page.getByText(longDate).waitFor();
    await page.evaluate(() => Object.defineProperty(navigator, "share", { value: undefined }));
    await page.getByRole("button", { name: "Share ember" }).click();
    await page.getByText("Ember copied to clipboard").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^".+" — Ember Verse$/);
    await page.getByRole("link", { name: "View Archive" }).click();
    await page.waitForURL(`${server.url}/ember/archive`);
    await page.context().close();
  });

  it("shows Load More only while the last page came back full", async () => {
    const page = await open(server, "/ember/archive");
    const items = page.locator("main li");
    expect(await items.count()).toBe(10);
    const loadMore = page.getByRole("button", { name: "Load More" });
    // 31 published demo embers: 10 + 10 + 10 + 1.
    for (const expected of [20, 30, 31]) {
      await loadMore.click();
      await page.waitForFunction(
        (count) => document.querySelectorAll("main li").length === count,
        expected,
      );
    }
    expect(await loadMore.count()).toBe(0);
    await page.context().close();
  });

  it("shows the empty states on a site with no embers", async () => {
    const page = await open(empty, "/ember");
    await page.getByText("No ember available today").waitFor();
    await page.getByText("Check back tomorrow for new inspiration.").waitFor();
    await page.goto(`${empty.url}/ember/archive`);
    await page.getByText("No embers in archive").waitFor();
    expect(await page.getByRole("button", { name: "Load More" }).count()).toBe(0);
    await page.context().close();
  });
});

describe("books", () => {
  it("publishes the first slot with the only server book and leaves four coming", async () => {
    const page = await open(server, "/books");
    const slots = page.locator("main ol > li");
    expect(await slots.count()).toBe(5);
    const first = slots.nth(0);
    const buy = first.getByRole("link", { name: "Buy Now" });
    expect(await buy.getAttribute("href")).toBe(DEMO_BOOK.buyUrl);
    expect(await buy.getAttribute("target")).toBe("_blank");
    expect(await buy.getAttribute("rel")).toContain("noopener");
    for (let index = 1; index < 5; index++) {
      expect(await slots.nth(index).getByRole("button", { name: "Coming Soon" }).isDisabled()).toBe(
        true,
      );
    }
    await first.getByRole("link", { name: "Preview Pages" }).click();
    await page.waitForURL(`${server.url}/book/${DEMO_BOOK.slug}/preview`);
    await page.context().close();
  });

  it("shows all five slots as coming soon with no server books", async () => {
    const page = await open(empty, "/books");
    expect(await page.getByRole("button", { name: "Coming Soon" }).count()).toBe(5);
    await page.context().close();
  });

  it("pages through a preview with arrows, dots and keys, keeping line breaks", async () => {
    const page = await open(server, `/book/${DEMO_BOOK.slug}/preview`);
    const total = DEMO_BOOK.pages.length;
    await page.getByText(`Page 1 of ${total}`).waitFor();
    expect(await page.getByRole("button", { name: "Previous page" }).count()).toBe(0);
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText(`Page 2 of ${total}`).waitFor();
    await page.keyboard.press("ArrowRight");
    await page.getByText(`Page 3 of ${total}`).waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.getByText(`Page 2 of ${total}`).waitFor();
    await page.getByRole("button", { name: `Go to page ${total}` }).click();
    await page.getByText(`Page ${total} of ${total}`).waitFor();
    expect(await page.getByRole("button", { name: "Next page" }).count()).toBe(0);
    const content = await page.locator("article p").innerText();
    expect(content).toBe(DEMO_BOOK.pages[total - 1]?.content);
    await page.goto(`${server.url}/book/no-such-book/preview`);
    await page.getByRole("heading", { name: "Book not found" }).waitFor();
    await page.getByRole("link", { name: "Back to Books" }).waitFor();
    await page.context().close();
  });
});

describe("guest voices and contributions", () => {
  it("lists the three voices, opens one, and answers an unknown one with 404", async () => {
    const page = await open(server, "/guest-voices");
    expect(await page.locator("main ul > li").count()).toBe(GUEST_VOICES.length);
    await page.getByText("Add your poem to the fire. We curate monthly.").waitFor();
    const voice = GUEST_VOICES[0];
    if (!voice) throw new Error("no voices");
    await page.getByRole("heading", { name: voice.name }).click();
    await page.waitForURL(`${server.url}/guest-voices/${voice.slug}`);
    await page.getByRole("link", { name: `Follow ${voice.name.split(" ")[0]}` }).waitFor();
    await page.getByRole("heading", { name: "Other Works" }).waitFor();
    expect((await fetch(`${server.url}/guest-voices/nobody`)).status).toBe(404);
    await page.goto(`${server.url}/guest-voices/nobody`);
    await page.getByRole("heading", { name: "Guest Voice Not Found" }).waitFor();
    await page.context().close();
  });

  it("asks for the required fields, then thanks the writer, and starts again empty", async () => {
    const page = await open(server, "/contribute");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Please fill in all required fields and confirm consent.").waitFor();
    await page.getByLabel("Name*").fill("Rowan Vale");
    await page.getByLabel("Email*").fill("rowan@example.com");
    expect(await page.getByLabel("Email*").getAttribute("type")).toBe("email");
    expect(await page.getByLabel("Social/Website URL").getAttribute("type")).toBe("url");
    expect(await page.getByLabel("Handle").getAttribute("placeholder")).toBe("@yourhandle");
    expect(await page.getByLabel("Short bio").getAttribute("maxlength")).toBe("160");
    await page.getByLabel("Short bio").fill("Writes by the sea.");
    await page.getByText("18/160").waitFor();
    await page.getByLabel("Poem title*").fill("Salt");
    await page.getByLabel("Poem text*").fill("The sea keeps\nwhat it is given.");
    await page
      .getByLabel(/I confirm this is my original work and grant Ember Verse permission/)
      .check();
    const request = page.waitForRequest("**/api/guest-submission");
    await page.getByRole("button", { name: "Submit" }).click();
    const body = (await request).postDataJSON();
    expect(body).toEqual({
      name: "Rowan Vale",
      email: "rowan@example.com",
      bio: "Writes by the sea.",
      poemTitle: "Salt",
      poemText: "The sea keeps\nwhat it is given.",
    });
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    await page.getByRole("link", { name: "Explore Guest Voices" }).waitFor();
    await page.getByRole("button", { name: "Submit another piece" }).click();
    expect(await page.getByLabel("Name*").inputValue()).toBe("");
    await page.context().close();
  });

  it("does nothing at all when the hidden decoy field is filled", async () => {
    const page = await open(server, "/contribute");
    let sent = false;
    page.on("request", (request) => {
      if (request.url().includes("/api/guest-submission")) sent = true;
    });
    await page.getByLabel("Name*").fill("Bot");
    await page.getByLabel("Email*").fill("bot@example.com");
    await page.getByLabel("Poem title*").fill("Spam");
    await page.getByLabel("Poem text*").fill("Spam");
    await page.getByRole("checkbox", { name: /I confirm/ }).check();
    await page.locator('input[name="fax"]').fill("555-0100", { force: true });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForTimeout(500);
    expect(sent).toBe(false);
    expect(await page.getByRole("heading", { name: "Submit a poem" }).isVisible()).toBe(true);
    await page.context().close();
  });
});

describe("the weekly digest sign-up", () => {
  it("subscribes from the footer, confirms by the mailed link, and unsubscribes only on the button", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const page = await open(server, "/books");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("textbox").fill("not-an-email");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Please enter a valid email address").waitFor();
    await footer.getByRole("textbox").fill("digest@example.com");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Almost there!").waitFor();
    await footer.getByText("Thank You").waitFor();

    // Without SMTP_URL the message is in DATA_DIR/outbox.
    const outbox = path.join(server.dataDir, "outbox");
    const eml = fs
      .readdirSync(outbox)
      .map((file) => fs.readFileSync(path.join(outbox, file), "utf8"))
      .find((message) => message.includes("To: digest@example.com"));
    const unfolded = (eml ?? "").replace(/=\r?\n/g, "").replaceAll("=3D", "=");
    const verify = /http:\/\/127\.0\.0\.1:\d+\/api\/subscribe\/verify\?token=[\w-]+/.exec(
      unfolded,
    )?.[0];
    const unsubscribe = /http:\/\/127\.0\.0\.1:\d+\/unsubscribe\?s=\d+&(?:amp;)?sig=[\w-]+/.exec(
      unfolded,
    )?.[0];
    expect(verify).toBeTruthy();
    await page.goto(verify ?? "");
    await page.getByText("Subscription confirmed").waitFor();
    await page.waitForURL(`${server.url}/subscribe/confirmed`);

    await page.goto((unsubscribe ?? "").replace("&amp;", "&"));
    await page.getByRole("heading", { name: "Unsubscribe from the weekly digest?" }).waitFor();
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByRole("heading", { name: "You are unsubscribed" }).waitFor();
    await page.context().close();
  });
});
