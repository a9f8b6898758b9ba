import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { ensureTags } from "../helpers/factories.ts";
import { type FediverseSite, startFediverseSite } from "../helpers/fediverse-site.ts";
import { signIn } from "../helpers/session.ts";

/**
 * Publishing federates to real followers (docs/decisions/047-fediverse-delivery.md): peers not
 * built on Fedify follow the site, the poet saves a poem published, and each follower's server
 * gets one signed Create, verified against the actor's key fetched over HTTP, even a server that
 * answered 503 twice first.
 */
describe.each(drivers)("publishing to followers on %s", (driver) => {
  let site: FediverseSite;
  let peer: ActivityPubPeer;
  let loner: ActivityPubPeer;

  beforeAll(async () => {
    site = await startFediverseSite(driver, { fediverseDeliveryOptions: { retryBaseMs: 0 } });
    site.services.fediverseOutbound.start();
    peer = await startActivityPubPeer();
    loner = await startActivityPubPeer({ sharedInbox: false });
  });
  afterAll(async () => {
    await site.services.fediverseOutbound.stop();
    await peer.close();
    await loner.close();
    await site.close();
  });

  async function follow(from: ActivityPubPeer, name: string) {
    const response = await from.send(
      site.inboxUrl,
      { id: from.newId(name), type: "Follow", actor: from.actorUrl(name), object: site.actorUrl },
      { as: name },
    );
    expect(response.status).toBeLessThan(300);
    await from.waitFor(
      (r) => r.activity.type === "Accept" && r.inbox === `/users/${name}/inbox`,
      5000,
    );
  }

  it("sends one Create per follower's server when a poem is saved published", async () => {
    await follow(peer, "alice");
    await follow(peer, "bob");
    await follow(loner, "carol");
    peer.answerNext("/inbox", [503, 503]);
    const admin = await signIn(site, "poet@example.com", { admin: true });
    const [tag] = await ensureTags(site.db, ["Night"]);
    const saved = await api(site.app, "POST", "/api/admin/poems", {
      body: {
        title: "Lanterns",
        slug: "lanterns",
        stanzas: ["a lantern / in the rain", "and one more"],
        audioUrl: "",
        coverUrl: "",
        coverAlt: "",
        tagIds: [tag?.id],
      },
      cookie: admin,
      origin: site.url,
    });
    expect(saved.status).toBe(201);
    const isCreate = (r: { activity: Record<string, unknown>; status: number }) =>
      r.activity.type === "Create" && r.status === 202;
    // The content write wakes the reconciliation: no waiting for its interval.
    const shared = await peer.waitFor(isCreate, 10_000);
    const own = await loner.waitFor(isCreate, 10_000);
    expect(shared.inbox).toBe("/inbox");
    expect(own.inbox).toBe("/users/carol/inbox");
    for (const received of [shared, own]) {
      expect(received.verified).toBe(true);
      expect(received.keyId).toBe(`${site.actorUrl}#main-key`);
      expect(received.activity.object).toMatchObject({
        type: "Article",
        id: `${site.url}/poetry/lanterns`,
        name: "Lanterns",
        tag: expect.objectContaining({ type: "Hashtag", name: "#Night" }),
      });
    }
    // Time for a second copy to arrive, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const creates = peer.received.filter((r) => r.activity.type === "Create");
    expect(creates.map((r) => r.status)).toEqual([503, 503, 202]);
    expect(loner.received.filter(isCreate)).toHaveLength(1);
  });
});
