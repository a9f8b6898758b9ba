import AxeBuilder from "@axe-core/playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import { signInWithLink } from "../helpers/operator.ts";

/**
 * The poet sees what followers were sent (docs/product/fediverse-delivery.md): three servers
 * follow, one takes the poem, one is gone (410) and one is down (503), and /admin/fediverse
 * shows the poem sent to one, retrying for one and failed for one, with nothing axe finds.
 */
const site = setUpBrowserSite({ FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "true" });
const peers: ActivityPubPeer[] = [];
beforeAll(async () => {
  for (let n = 0; n < 3; n++) peers.push(await startActivityPubPeer({ sharedInbox: false }));
});
afterAll(async () => {
  for (const peer of peers) await peer.close();
});

const SCREENSHOTS = process.env.SCREENSHOT_DIR;

describe("delivery state in the admin", () => {
  it("shows a published poem's deliveries sent, retrying and failed", async () => {
    const actor = `${site.server.url}/fediverse/actor/poet`;
    for (const [n, peer] of peers.entries()) {
      const name = `reader${n}`;
      await peer.send(
        `${actor}/inbox`,
        { id: peer.newId(name), type: "Follow", actor: peer.actorUrl(name), object: actor },
        { as: name },
      );
      await peer.waitFor((r) => r.activity.type === "Accept" && r.verified);
    }
    peers[1]?.answerAlways("/users/reader1/inbox", 410);
    peers[2]?.answerAlways("/users/reader2/inbox", 503);

    const cookie = await signInWithLink(
      (await site.server.cli("login-link", "poet@example.com", "--admin")).stdout.trim(),
    );
    const api = (path: string, body?: unknown) =>
      fetch(`${site.server.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { Cookie: cookie, Origin: site.server.url, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const tags = (await (await api("/api/tags")).json()) as { id: number }[];
    const saved = await api("/api/admin/poems", {
      title: "Sent to the fediverse",
      slug: "sent-to-the-fediverse",
      stanzas: ["a poem / for three servers"],
      tagIds: [tags[0]?.id],
    });
    expect(saved.status).toBe(201);
    await expect
      .poll(
        async () => {
          const states = (await (await api("/api/admin/fediverse/deliveries")).json()) as {
            slug: string;
            sent: number;
            retrying: number;
            failed: number;
          }[];
          const state = states.find((row) => row.slug === "sent-to-the-fediverse");
          return state && [state.sent, state.retrying, state.failed];
        },
        { timeout: 15_000 },
      )
      .toEqual([1, 1, 1]);

    for (const width of [1280, 375]) {
      const context = await site.signedIn("poet@example.com", {
        admin: true,
        viewport: { width, height: 900 },
      });
      const page = await context.newPage();
      await page.goto(`${site.server.url}/admin/fediverse`);
      await hydrated(page);
      const deliveries = page.getByRole("region", { name: "Deliveries" });
      const row = deliveries.getByRole("row", { name: /Sent to the fediverse/ });
      await row.waitFor();
      await expect(row.getByRole("cell").allTextContents()).resolves.toEqual([
        "Sent to the fediverse",
        "1",
        "1",
        "1",
        expect.stringMatching(/^Published, /),
      ]);
      const axe = await new AxeBuilder({ page })
        .include("section[aria-labelledby='fediverse-deliveries']")
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      expect(axe.violations.map((violation) => violation.id)).toEqual([]);
      await deliveries.scrollIntoViewIfNeeded();
      if (SCREENSHOTS) {
        await page.screenshot({ path: `${SCREENSHOTS}/fediverse-deliveries-${width}.png` });
      }
      await context.close();
    }
  });
});
