import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { hydrated, openAdminAsPoet } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

/**
 * The built server as a fediverse account (docs/product/fediverse.md): an independent peer
 * follows it over HTTP, the footer offers the handle, and the poet sees the follower in
 * /admin/fediverse and blocks the peer's server there, which removes the follower.
 */
const site = setUpBrowserSite({ FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "true" });
let peer: ActivityPubPeer;
beforeAll(async () => {
  peer = await startActivityPubPeer();
});
afterAll(async () => {
  await peer.close();
});

const SCREENSHOTS = process.env.SCREENSHOT_DIR;

describe("the fediverse in the browser", () => {
  it("warns at start that private addresses are allowed", () => {
    expect(site.server.logs.join("\n")).toContain("FEDIVERSE_ALLOW_PRIVATE_ADDRESSES is on");
  });

  it("shows the handle on the footer's second line and copies it", async () => {
    const host = new URL(site.server.url).host;
    for (const width of [375, 1280]) {
      const context = await site.browser.newContext({ viewport: { width, height: 800 } });
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const page = await context.newPage();
      await page.goto(`${site.server.url}/about`);
      await hydrated(page);
      const handle = page.getByRole("button", { name: /Follow on Mastodon/ });
      await expect(handle.textContent()).resolves.toContain(`@poet@${host}`);
      await handle.scrollIntoViewIfNeeded();
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/footer-${width}.png` });
      await handle.click();
      await page.getByText("Handle copied").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`@poet@${host}`);
      await context.close();
    }
  });

  it("lists a follower and blocks its server from /admin/fediverse", async () => {
    const actor = `${site.server.url}/fediverse/actor/poet`;
    const follow = await peer.send(`${actor}/inbox`, {
      id: peer.newId("alice"),
      type: "Follow",
      actor: peer.actorUrl("alice"),
      object: actor,
    });
    expect(follow.status).toBeLessThan(300);
    await peer.waitFor((r) => r.activity.type === "Accept" && r.verified);

    const { admin, page } = await openAdminAsPoet(site.browser, site.server);
    await page.getByRole("link", { name: "Fediverse" }).click();
    await page.getByRole("heading", { name: "Fediverse", level: 1 }).waitFor();
    const followers = page.getByRole("region", { name: /Followers/ });
    await followers.getByText(`@alice@${peer.host}`).waitFor();
    expect(await followers.getByRole("heading").textContent()).toContain("(1)");
    await expect(followers.getByText("Alice of the Peer").count()).resolves.toBe(1);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      if (SCREENSHOTS)
        await page.screenshot({
          path: `${SCREENSHOTS}/admin-fediverse-${width}.png`,
          fullPage: true,
        });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByLabel("Server or account").fill("not a server!");
    await page.getByRole("button", { name: "Block", exact: true }).click();
    await page
      .getByRole("alert")
      .getByText(/Enter a server/)
      .waitFor();
    await page.getByLabel("Server or account").fill(peer.host);
    await page.getByRole("button", { name: "Block", exact: true }).click();
    const blocks = page.getByRole("region", { name: "Blocks" });
    await blocks.getByRole("listitem").filter({ hasText: peer.host }).waitFor();
    await page.reload();
    await hydrated(page);
    await page.getByText("Nobody follows yet.", { exact: false }).waitFor();
    if (SCREENSHOTS)
      await page.screenshot({ path: `${SCREENSHOTS}/admin-fediverse-blocked.png`, fullPage: true });
    await page.getByRole("button", { name: "Unblock" }).click();
    await page.getByText("Nothing is blocked.").waitFor();
    await admin.close();
  });
});
