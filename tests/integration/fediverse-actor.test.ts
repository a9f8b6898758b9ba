import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import packageJson from "../../package.json" with { type: "json" };
import { requireAdmin } from "../../server/core/actor.ts";
import { fediverseFollowers, fediverseKeys, remoteAccounts } from "../../server/db/schema.ts";
import nodeInfoSchema from "../fixtures/nodeinfo-2.1.schema.json" with { type: "json" };
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { type FediverseSite, startFediverseSite } from "../helpers/fediverse-site.ts";

const AP = "application/activity+json";

/**
 * The site as one actor, against an independent peer (tests/helpers/activitypub-peer.ts): the
 * discovery documents, following and unfollowing, and refusing what is not signed by the actor
 * (docs/decisions/045-federation-layer.md).
 */
describe.each(drivers)("fediverse actor on %s", (driver) => {
  let site: FediverseSite;
  let peer: ActivityPubPeer;

  beforeAll(async () => {
    site = await startFediverseSite(driver);
    peer = await startActivityPubPeer();
  });
  afterAll(async () => {
    await peer.close();
    await site.close();
  });

  const get = (path: string, accept = AP) =>
    fetch(`${site.url}${path}`, { headers: { Accept: accept } });

  it("answers WebFinger for acct:poet@host:port with a self link to the actor", async () => {
    const host = new URL(site.url).host;
    const response = await get(
      `/.well-known/webfinger?resource=acct:poet@${host}`,
      "application/jrd+json",
    );
    expect(response.status).toBe(200);
    const jrd = (await response.json()) as {
      subject: string;
      links: Array<Record<string, string>>;
    };
    expect(jrd.subject).toBe(`acct:poet@${host}`);
    expect(jrd.links).toContainEqual(
      expect.objectContaining({ rel: "self", type: AP, href: site.actorUrl }),
    );
    expect((await get(`/.well-known/webfinger?resource=acct:someone@${host}`)).status).toBe(404);
  });

  it("serves the actor: a Person with inbox, outbox, followers, shared inbox and both keys", async () => {
    const response = await get("/fediverse/actor/poet");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("json");
    const actor = (await response.json()) as {
      publicKey: { publicKeyPem: string };
      assertionMethod: unknown;
    };
    expect(actor).toMatchObject({
      id: site.actorUrl,
      type: "Person",
      preferredUsername: "poet",
      name: "Ember Verse",
      inbox: site.inboxUrl,
      outbox: `${site.actorUrl}/outbox`,
      followers: `${site.actorUrl}/followers`,
      endpoints: { sharedInbox: site.sharedInboxUrl },
    });
    expect(actor.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(JSON.stringify(actor.assertionMethod)).toContain("Multikey");
    // The keys are made once and kept: one row per algorithm.
    expect(await site.db.select().from(fediverseKeys)).toHaveLength(2);
    // A browser opening the actor's address is shown the site.
    const browser = await fetch(`${site.url}/fediverse/actor/poet`, {
      headers: { Accept: "text/html" },
      redirect: "manual",
    });
    expect(browser.status).toBe(302);
  });

  it("takes the actor's name, summary and icon from the site settings once they are set", async () => {
    const admin = requireAdmin({
      id: "00000000-0000-0000-0000-000000000000",
      role: "ADMIN",
    } as never);
    await site.services.siteSettings.update(admin, {
      siteTitle: "Salt Hours",
      poetBio: "Writes by the sea.\n\nReads <aloud>.",
      portraitUrl: "/objects/images/portrait.webp",
    });
    const actor = (await (await get("/fediverse/actor/poet")).json()) as Record<string, unknown>;
    expect(actor).toMatchObject({
      name: "Salt Hours",
      summary: "<p>Writes by the sea.</p><p>Reads &lt;aloud&gt;.</p>",
      icon: { type: "Image", url: `${site.url}/objects/images/portrait.webp` },
    });
    await site.services.siteSettings.update(admin, { siteTitle: "", poetBio: "", portraitUrl: "" });
  });

  it("publishes NodeInfo 2.1 and an outbox of published poems only", async () => {
    await createPoem(site.db, { slug: "outbox-seen", title: "Seen" });
    await createPoem(site.db, { slug: "outbox-draft", title: "Draft", draft: true });
    await createPoem(site.db, {
      slug: "outbox-later",
      publishAt: new Date(Date.now() + 86_400_000),
    });
    const links = (await (await get("/.well-known/nodeinfo", "application/json")).json()) as {
      links: Array<{ rel: string; href: string }>;
    };
    expect(links.links[0]?.rel).toContain("nodeinfo.diaspora.software/ns/schema/2.1");
    const nodeInfo = (await (await fetch(links.links[0]?.href ?? "")).json()) as Record<
      string,
      unknown
    >;
    expect(nodeInfo).toMatchObject({
      version: "2.1",
      protocols: ["activitypub"],
      software: { name: packageJson.name, version: packageJson.version },
    });
    // Valid by the NodeInfo 2.1 JSON schema itself, which allows no property it does not name.
    const validate = new Ajv({ allErrors: true }).compile(nodeInfoSchema);
    expect(validate(nodeInfo), JSON.stringify(validate.errors)).toBe(true);
    const outbox = (await (await get("/fediverse/actor/poet/outbox")).json()) as {
      totalItems: number;
      first: string;
    };
    expect(outbox.totalItems).toBe(1);
    const firstPage = (await (
      await get(new URL(outbox.first).pathname + new URL(outbox.first).search)
    ).json()) as { orderedItems: Array<{ object: { id: string } }> };
    const items = firstPage.orderedItems;
    // Sent to nobody (no follower yet), its Create has the outbox's own id, one per activity.
    expect((items[0] as unknown as { id: string }).id).toBe(
      `${site.url}/poetry/outbox-seen#create`,
    );
    expect(items.map((item) => item.object.id)).toEqual([`${site.url}/poetry/outbox-seen`]);
    expect(items[0]).toMatchObject({ type: "Create", object: { type: "Article", name: "Seen" } });
  });

  it("accepts a signed Follow: the Accept reaches the follower's inbox within 5 s, signed", async () => {
    const followId = peer.newId("alice");
    const started = Date.now();
    const response = await peer.send(site.inboxUrl, {
      id: followId,
      type: "Follow",
      actor: peer.actorUrl("alice"),
      object: site.actorUrl,
    });
    expect(response.status).toBeLessThan(300);
    const accept = await peer.waitFor((r) => r.activity.type === "Accept", 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(accept.verified).toBe(true);
    expect(accept.keyId).toBe(`${site.actorUrl}#main-key`);
    expect(accept.inbox).toBe("/users/alice/inbox");
    const object = accept.activity.object as Record<string, unknown> | string;
    expect(typeof object === "string" ? object : object.id).toBe(followId);
    const followers = await site.db.select().from(fediverseFollowers);
    expect(followers.map((row) => row.actorId)).toEqual([peer.actorUrl("alice")]);
    const [actor] = await site.db.select().from(remoteAccounts);
    expect(actor).toMatchObject({
      handle: `@alice@${peer.host}`,
      name: "Alice of the Peer",
      server: peer.host,
      sharedInbox: peer.sharedInboxUrl,
    });
    // Anyone may read how many follow, unsigned.
    const collection = (await (await get("/fediverse/actor/poet/followers")).json()) as {
      totalItems: number;
    };
    expect(collection.totalItems).toBe(1);
  });

  it("refuses unsigned, forged and tampered activities with 401 and stores nothing", async () => {
    const follow = (name: string) => ({
      id: peer.newId(name),
      type: "Follow",
      actor: peer.actorUrl(name),
      object: site.actorUrl,
    });
    const unsigned = await peer.send(site.inboxUrl, follow("bob"), { signature: "none" });
    const wrongKey = await peer.send(site.inboxUrl, follow("carol"), { signature: "wrong-key" });
    const tampered = await peer.send(site.sharedInboxUrl, follow("dave"), {
      signature: "tampered",
    });
    // Signed with alice's key, claiming to be erin: the key is not the actor's.
    const notTheirs = await peer.send(site.inboxUrl, follow("erin"), { keyOf: "alice" });
    expect([unsigned.status, wrongKey.status, tampered.status, notTheirs.status]).toEqual([
      401, 401, 401, 401,
    ]);
    const followers = await site.db.select().from(fediverseFollowers);
    expect(followers.map((row) => row.actorId)).toEqual([peer.actorUrl("alice")]);
  });

  it("removes a follower on Undo(Follow)", async () => {
    const followId = peer.newId("frank");
    await peer.send(
      site.sharedInboxUrl,
      {
        id: followId,
        type: "Follow",
        actor: peer.actorUrl("frank"),
        object: site.actorUrl,
      },
      { as: "frank" },
    );
    await peer.waitFor((r) => r.activity.type === "Accept" && r.inbox === "/users/frank/inbox");
    expect(await site.db.select().from(fediverseFollowers)).toHaveLength(2);
    const response = await peer.send(
      site.inboxUrl,
      {
        id: peer.newId("frank"),
        type: "Undo",
        actor: peer.actorUrl("frank"),
        object: {
          id: followId,
          type: "Follow",
          actor: peer.actorUrl("frank"),
          object: site.actorUrl,
        },
      },
      { as: "frank" },
    );
    expect(response.status).toBeLessThan(300);
    const followers = await site.db.select().from(fediverseFollowers);
    expect(followers.map((row) => row.actorId)).toEqual([peer.actorUrl("alice")]);
  });
});

/**
 * Without FEDIVERSE_ALLOW_PRIVATE_ADDRESSES the site fetches nothing from loopback or private
 * addresses (the image URLs' rule): a peer on localhost cannot even have its key read, so its
 * Follow is refused as unverifiable and nothing is stored. With it on, the process says so.
 */
describe.each(drivers)("fediverse fetches on %s", (driver) => {
  it("never reaches a loopback peer unless allowed, and warns when allowed", async () => {
    const lines: string[] = [];
    const guarded = await startFediverseSite(driver, {
      env: { FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "false" },
    });
    const allowed = await startFediverseSite(driver, {
      logDestination: { write: (line) => lines.push(line) },
    });
    const peer = await startActivityPubPeer();
    try {
      const response = await peer.send(guarded.inboxUrl, {
        id: peer.newId("alice"),
        type: "Follow",
        actor: peer.actorUrl("alice"),
        object: guarded.actorUrl,
      });
      expect(response.status).toBe(401);
      expect(peer.received).toHaveLength(0);
      expect(await guarded.db.select().from(remoteAccounts)).toHaveLength(0);
      expect(lines.join("\n")).toContain("FEDIVERSE_ALLOW_PRIVATE_ADDRESSES is on");
    } finally {
      await peer.close();
      await guarded.close();
      await allowed.close();
    }
  });
});
