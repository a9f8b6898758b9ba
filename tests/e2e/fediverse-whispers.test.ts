import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeProcess } from "../../server/compose.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabaseFor } from "../../server/db/open.ts";
import { poemObjectUrl } from "../../server/fediverse/object-urls.ts";
import { createLogger } from "../../server/logger.ts";
import { hydrated, openAdminAsPoet } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import { createFreshPostgres, type FreshPostgres } from "../helpers/fresh-postgres.ts";

/**
 * A reply from the fediverse as the poet moderates it and readers then see it
 * (docs/product/interactions.md, Whispers from the fediverse): the inbox's verified reply is
 * handed to the site's own service on the database the built server runs on.
 */

let postgres: FreshPostgres | undefined;
const SESSION_SECRET = "fediverse-whispers-e2e-session-secret-0123456789";
beforeAll(async () => {
  postgres = await createFreshPostgres("ev_fedwhisper");
});
const site = setUpBrowserSite(() => ({
  DATABASE_URL: postgres?.url ?? "",
  SESSION_SECRET,
  DEMO_CONTENT: "true",
}));
afterAll(async () => {
  await postgres?.drop();
});

const SLUG = "the-kitchen-table";
const ADA = {
  actorUrl: "https://elsewhere.example/users/ada",
  handle: "@ada@elsewhere.example",
  name: "Ada Lovelace",
  avatarUrl: "https://elsewhere.example/avatars/ada.png",
  profileUrl: "https://elsewhere.example/@ada",
  server: "elsewhere.example",
};
const POST_URL = "https://elsewhere.example/@ada/1001";

/**
 * Hands a reply, a like and a boost to the site's fediverse reactions service, as the inbox does once
 * it verified them.
 */
async function receiveFromAda() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: postgres?.url,
    SESSION_SECRET,
    DATA_DIR: site.server.dataDir,
    PUBLIC_URL: site.server.url,
  });
  const logger = createLogger("warn");
  const handle = await openDatabaseFor(config);
  const { services, close } = await composeProcess({ config, logger, handle });
  try {
    const { fediverseReactions } = services;
    const poem = poemObjectUrl(config.publicUrl, SLUG).href;
    return [
      await fediverseReactions.receiveReply(ADA, {
        noteId: "https://elsewhere.example/users/ada/statuses/1001",
        url: POST_URL,
        inReplyTo: poem,
        contentHtml: `<p><span class="h-card"><a href="${site.server.url}/@poet" class="u-url mention">@<span>poet</span></a></span> Every chair is a different chair &lt;script&gt;alert(1)&lt;/script&gt;</p><p>and mine rocks.</p><script>alert(2)</script>`,
        published: new Date(),
      }),
      await fediverseReactions.receiveLike(ADA, {
        activityId: "https://elsewhere.example/users/ada#likes/1",
        object: poem,
      }),
      await fediverseReactions.receiveAnnounce(ADA, {
        activityId: "https://elsewhere.example/users/ada/statuses/1002/activity",
        object: poem,
      }),
    ];
  } finally {
    close();
    await handle.close();
  }
}

describe("a reply from the fediverse", () => {
  let admin: BrowserContext | undefined;
  afterAll(async () => {
    await admin?.close();
  });

  it("waits in the Whispers tab marked as from the fediverse, is moved and approved, then shows its author's name, server and links", async () => {
    expect(await receiveFromAda()).toEqual(["stored", "stored", "stored"]);
    let alerted = false;

    const opened = await openAdminAsPoet(site.browser, site.server);
    admin = opened.admin;
    const { page } = opened;
    page.on("dialog", (dialog) => {
      alerted = true;
      void dialog.dismiss();
    });
    // The Poems tab counts what came from the fediverse for the poem.
    await page
      .getByRole("listitem")
      .filter({ hasText: "The Kitchen Table" })
      .getByText("Fediverse: 1 boost, 1 like, 1 reply")
      .waitFor();
    await page.getByRole("tab", { name: "Whispers" }).click();
    const whisper = page.getByRole("listitem").filter({ hasText: "From the fediverse" });
    await whisper.getByText("@ada@elsewhere.example").waitFor();
    // A reply from the fediverse waits for the poet as any held whisper does.
    expect(await whisper.getByText("Awaiting approval", { exact: true }).count()).toBe(1);
    // A reply to the poem lands on its first stanza; the poet moves it where it belongs.
    expect(await whisper.textContent()).toContain("The Kitchen Table, stanza 1");
    await whisper.getByLabel("Move to stanza").selectOption("2");
    await whisper.getByRole("button", { name: "Move", exact: true }).click();
    await page.getByText("It is now on stanza 2.").waitFor();
    await whisper.getByText("The Kitchen Table, stanza 2").waitFor();
    await page.screenshot({
      path: "test-results/fediverse-whisper-admin-1280.png",
      fullPage: true,
    });
    await page.setViewportSize({ width: 375, height: 812 });
    await whisper.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/fediverse-whisper-admin-375.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await whisper.getByRole("button", { name: "Approve" }).click();
    await page.getByText("The reflection is now visible to all users.").waitFor();

    for (const width of [375, 1280]) {
      const reader = await site.browser.newContext({ viewport: { width, height: 900 } });
      const poemPage = await site.open(reader, `/poetry/${SLUG}#s-1`);
      poemPage.on("dialog", () => {
        alerted = true;
      });
      await hydrated(poemPage);
      await poemPage.getByRole("button", { name: "Show whispers" }).first().click();
      const panel = poemPage.locator("section[aria-labelledby=whispers-heading]");
      await panel.getByText("Whispers on Stanza 2").waitFor();
      const item = panel.getByRole("listitem").filter({ hasText: "Every chair" });
      await item.waitFor();
      // Plain text with its line break, the markup shown as the characters it is.
      expect(await item.locator("p.whitespace-pre-line").innerText()).toBe(
        "Every chair is a different chair <script>alert(1)</script>\n\nand mine rocks.",
      );
      expect(await item.getByRole("link", { name: "Ada Lovelace" }).getAttribute("href")).toBe(
        ADA.profileUrl,
      );
      await item.getByText("@ada@elsewhere.example").waitFor();
      expect(
        await item
          .getByRole("link", { name: "View the reply on elsewhere.example" })
          .getAttribute("href"),
      ).toBe(POST_URL);
      // No picture is loaded from the author's server: a letter stands for it.
      expect(await item.locator("img").count()).toBe(0);
      await item.scrollIntoViewIfNeeded();
      await poemPage.screenshot({ path: `test-results/fediverse-whisper-poem-${width}.png` });
      await reader.close();
    }
    expect(alerted).toBe(false);
  });
});
