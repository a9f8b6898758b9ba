import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../server/core/rate-limit.ts";
import { echoes } from "../../server/db/schema.ts";
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { type FediverseSite, startFediverseSite } from "../helpers/fediverse-site.ts";

/**
 * Nobody can spend another server's inbox budget
 * (docs/decisions/065-inbox-limits-by-who-proved-it.md): posts that name a real server's key but
 * are not signed by it are charged to the address they come from, so the server's own signed
 * activities still get through.
 */
describe.each(drivers)("fediverse inbox limits on %s", (driver) => {
  let site: FediverseSite;
  let peer: ActivityPubPeer;

  beforeAll(async () => {
    site = await startFediverseSite(driver);
    peer = await startActivityPubPeer();
    await createPoem(site.db, { slug: "harbour", title: "Harbour at Dusk" });
  });
  afterAll(async () => {
    await peer.close();
    await site.close();
  });

  it("lets a server's signed Like through after 620 unsigned posts naming its key", async () => {
    // The peer is a real follower: the site holds its key from that first activity.
    const follow = await peer.send(site.sharedInboxUrl, {
      id: peer.newId("alice"),
      type: "Follow",
      actor: peer.actorUrl("alice"),
      object: site.actorUrl,
    });
    expect(follow.status).toBe(202);
    // The flood comes from the peer's own address (both run on this machine): the worst case.
    const flood = RATE_LIMITS.fediverseInboxPerServer.limit + 20;
    const statuses: number[] = [];
    for (let n = 0; n < flood; n++) {
      const response = await fetch(site.sharedInboxUrl, {
        method: "POST",
        headers: {
          "Content-Type": "application/activity+json",
          Signature: `keyId="${peer.keyIdOf("alice")}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"`,
        },
        body: JSON.stringify({
          "@context": "https://www.w3.org/ns/activitystreams",
          id: peer.newId("alice"),
          type: "Like",
          actor: peer.actorUrl("alice"),
          object: `${site.url}/poetry/harbour`,
        }),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    // Refused every one, first as unsigned, then as too many from that address.
    const unverifiedBudget = RATE_LIMITS.fediverseInboxUnverifiedPerIp.limit;
    expect(statuses.slice(0, unverifiedBudget).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(unverifiedBudget).every((status) => status === 429)).toBe(true);
    expect(await site.db.select().from(echoes)).toHaveLength(0);

    const like = await peer.send(site.sharedInboxUrl, {
      id: peer.newId("alice"),
      type: "Like",
      actor: peer.actorUrl("alice"),
      object: `${site.url}/poetry/harbour`,
    });
    expect(like.status).toBe(202);
    expect(await site.db.select().from(echoes)).toHaveLength(1);
  }, 120_000);
});
