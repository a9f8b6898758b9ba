import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireAdmin } from "../../server/core/actor.ts";
import {
  echoes,
  fediverseFollowers,
  poemBoosts,
  remoteAccounts,
  whispers,
} from "../../server/db/schema.ts";
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { type FediverseSite, startFediverseSite } from "../helpers/fediverse-site.ts";

const AP = "application/activity+json";
type Document = Record<string, unknown>;

/**
 * What other servers send the site (docs/product/fediverse.md): replies to a stanza or a poem,
 * likes, boosts and their Undo, through the reactions service; a reply to a reply ignored; blocks;
 * the inbox's size cap. And what they find at a poem's and a stanza's address.
 */
describe.each(drivers)("fediverse inbox on %s", (driver) => {
  let site: FediverseSite;
  let peer: ActivityPubPeer;
  let poemUrl: string;
  let stanzaUrl: string;

  beforeAll(async () => {
    site = await startFediverseSite(driver);
    peer = await startActivityPubPeer();
    await createPoem(site.db, {
      slug: "tide",
      title: "Tide",
      stanzas: ["the sea <b>comes</b> / the sea goes", "salt on the / window"],
      coverUrl: "/objects/images/tide.webp",
      coverAlt: "A grey sea",
      tagNames: ["Sea Songs"],
    });
    await createPoem(site.db, { slug: "unseen", draft: true });
    poemUrl = `${site.url}/poetry/tide`;
    stanzaUrl = `${site.url}/share/poem/tide?s=1`;
  });
  afterAll(async () => {
    await peer.close();
    await site.close();
  });

  const note = (name: string, inReplyTo: string, content: string) => {
    const id = peer.newId(name, "statuses");
    return {
      id,
      type: "Note",
      attributedTo: peer.actorUrl(name),
      inReplyTo,
      content,
      url: id,
      published: new Date().toISOString(),
      to: ["https://www.w3.org/ns/activitystreams#Public"],
    };
  };
  const create = (name: string, object: Document) => ({
    id: peer.newId(name),
    type: "Create",
    actor: peer.actorUrl(name),
    object,
  });

  it("answers a poem's and a stanza's address with their objects to ActivityPub clients", async () => {
    const article = await fetch(poemUrl, { headers: { Accept: AP } });
    expect(article.status).toBe(200);
    expect(article.headers.get("vary")).toContain("Accept");
    const body = (await article.json()) as Document;
    expect(body).toMatchObject({
      id: poemUrl,
      type: "Article",
      name: "Tide",
      url: poemUrl,
      to: "as:Public",
      cc: `${site.actorUrl}/followers`,
      attributedTo: site.actorUrl,
      image: {
        type: "Image",
        url: `${site.url}/objects/images/tide.webp`,
        mediaType: "image/webp",
        name: "A grey sea",
      },
      attachment: { type: "Image", url: `${site.url}/objects/images/tide.webp` },
      summary: "the sea <b>comes</b>\nthe sea goes\n\nsalt on the\nwindow\n\nRead the poem:",
      tag: { type: "Hashtag", name: "#SeaSongs", href: `${site.url}/themes/sea-songs` },
    });
    expect(body.content).toBe(
      `<p>the sea &lt;b&gt;comes&lt;/b&gt;<br>the sea goes <a href="${site.url}/share/poem/tide?s=0">¶</a></p>` +
        `<p>salt on the<br>window <a href="${site.url}/share/poem/tide?s=1">¶</a></p>`,
    );
    const ldProfile = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
    const stanza = await fetch(stanzaUrl, { headers: { Accept: ldProfile } });
    expect(stanza.status).toBe(200);
    expect(await stanza.json()).toMatchObject({
      id: stanzaUrl,
      type: "Note",
      content: "<p>salt on the<br>window</p>",
      inReplyTo: poemUrl,
      context: poemUrl,
    });
    for (const hidden of [
      `${site.url}/poetry/unseen`,
      `${site.url}/poetry/nothing-here`,
      `${site.url}/share/poem/tide?s=7`,
      // A share address with no stanza, or a bad one, is no object, and never the page's HTML.
      `${site.url}/share/poem/tide`,
      `${site.url}/share/poem/tide?s=first`,
    ]) {
      const response = await fetch(hidden, { headers: { Accept: AP } });
      expect(response.status, hidden).toBe(404);
      expect(response.headers.get("content-type"), hidden).toContain("json");
    }
  });

  it("keeps a reply to a stanza as a hidden whisper on it, text only", async () => {
    const reply = note("alice", stanzaUrl, "<p>Salt <script>alert(1)</script>on the glass</p>");
    const response = await peer.send(site.sharedInboxUrl, create("alice", reply));
    expect(response.status).toBeLessThan(300);
    const [stored] = await site.db
      .select()
      .from(whispers)
      .where(eq(whispers.remoteNoteId, reply.id));
    expect(stored).toMatchObject({ stanzaIndex: "1", isApproved: false });
    expect(stored?.text).not.toContain("<");
    const [actor] = await site.db
      .select()
      .from(remoteAccounts)
      .where(eq(remoteAccounts.actorUrl, peer.actorUrl("alice")));
    expect(actor?.handle).toBe(`@alice@${peer.host}`);
  });

  it("puts a reply to the poem on its first stanza; ignores replies to anything else", async () => {
    const toPoem = note("bob", poemUrl, "<p>The whole tide</p>");
    const toReply = note("bob", peer.newId("alice", "statuses"), "<p>a reply to a reply</p>");
    const toDraft = note("bob", `${site.url}/poetry/unseen`, "<p>too early</p>");
    for (const object of [toPoem, toReply, toDraft]) {
      expect(
        (await peer.send(site.inboxUrl, create("bob", object), { as: "bob" })).status,
      ).toBeLessThan(300);
    }
    const stored = await site.db
      .select()
      .from(whispers)
      .where(eq(whispers.userId, await authorUserId("bob")));
    expect(stored.map((row) => [row.remoteNoteId, row.stanzaIndex])).toEqual([[toPoem.id, "0"]]);
  });

  it("reads a known sender from what it kept, and again when the sender sends an Update of itself", async () => {
    const [before] = await site.db
      .select()
      .from(remoteAccounts)
      .where(eq(remoteAccounts.actorUrl, peer.actorUrl("alice")));
    const profile = peer.rename("alice", "Alice Renamed");
    // A later activity does not fetch the actor's document again.
    await peer.send(site.inboxUrl, create("alice", note("alice", stanzaUrl, "<p>again</p>")));
    const [kept] = await site.db
      .select()
      .from(remoteAccounts)
      .where(eq(remoteAccounts.actorUrl, peer.actorUrl("alice")));
    expect(kept?.name).toBe(before?.name);
    const update = {
      id: peer.newId("alice"),
      type: "Update",
      actor: peer.actorUrl("alice"),
      object: profile,
    };
    expect((await peer.send(site.inboxUrl, update)).status).toBeLessThan(300);
    const [renamed] = await site.db
      .select()
      .from(remoteAccounts)
      .where(eq(remoteAccounts.actorUrl, peer.actorUrl("alice")));
    expect(renamed?.name).toBe("Alice Renamed");
  });

  it("edits a reply on Update and removes it on Delete, only for its author", async () => {
    const reply = note("carol", stanzaUrl, "<p>first words</p>");
    await peer.send(site.inboxUrl, create("carol", reply), { as: "carol" });
    await peer.send(
      site.inboxUrl,
      {
        id: peer.newId("carol"),
        type: "Update",
        actor: peer.actorUrl("carol"),
        object: { ...reply, content: "<p>second words</p>" },
      },
      { as: "carol" },
    );
    const [edited] = await site.db
      .select()
      .from(whispers)
      .where(eq(whispers.remoteNoteId, reply.id));
    expect(edited?.text).toBe("second words");
    // Someone else's Delete of carol's note changes nothing.
    await peer.send(
      site.inboxUrl,
      { id: peer.newId("dave"), type: "Delete", actor: peer.actorUrl("dave"), object: reply.id },
      { as: "dave" },
    );
    expect(
      await site.db.select().from(whispers).where(eq(whispers.remoteNoteId, reply.id)),
    ).toHaveLength(1);
    await peer.send(
      site.inboxUrl,
      {
        id: peer.newId("carol"),
        type: "Delete",
        actor: peer.actorUrl("carol"),
        object: { id: reply.id, type: "Tombstone" },
      },
      { as: "carol" },
    );
    expect(
      await site.db.select().from(whispers).where(eq(whispers.remoteNoteId, reply.id)),
    ).toHaveLength(0);
  });

  it("counts a like as an echo once per actor, and takes it back on Undo", async () => {
    const like = {
      id: peer.newId("erin"),
      type: "Like",
      actor: peer.actorUrl("erin"),
      object: stanzaUrl,
    };
    await peer.send(site.inboxUrl, like, { as: "erin" });
    await peer.send(site.inboxUrl, { ...like, id: peer.newId("erin") }, { as: "erin" });
    const userId = await authorUserId("erin");
    expect(await site.db.select().from(echoes).where(eq(echoes.userId, userId))).toHaveLength(1);
    await peer.send(
      site.inboxUrl,
      { id: peer.newId("erin"), type: "Undo", actor: peer.actorUrl("erin"), object: like },
      { as: "erin" },
    );
    expect(await site.db.select().from(echoes).where(eq(echoes.userId, userId))).toHaveLength(0);
  });

  it("counts a boost per poem, and takes it back on Undo", async () => {
    const boost = {
      id: peer.newId("frank"),
      type: "Announce",
      actor: peer.actorUrl("frank"),
      object: poemUrl,
    };
    await peer.send(site.inboxUrl, boost, { as: "frank" });
    expect(await site.db.select().from(poemBoosts)).toHaveLength(1);
    await peer.send(
      site.inboxUrl,
      { id: peer.newId("frank"), type: "Undo", actor: peer.actorUrl("frank"), object: boost },
      { as: "frank" },
    );
    expect(await site.db.select().from(poemBoosts)).toHaveLength(0);
  });

  it("answers malformed or unknown activities without a 5xx, and a body over the cap with 413", async () => {
    const unknown = await peer.send(site.inboxUrl, {
      id: peer.newId("alice"),
      type: "Wave",
      actor: peer.actorUrl("alice"),
      object: poemUrl,
    });
    expect(unknown.status).toBeLessThan(500);
    const huge = await peer.send(
      site.inboxUrl,
      create("alice", note("alice", stanzaUrl, "x".repeat(300_000))),
    );
    expect(huge.status).toBe(413);
  });

  it("blocks an account and a server: followers removed, whispers hidden, activities refused", async () => {
    const admin = requireAdmin({
      id: "00000000-0000-0000-0000-000000000000",
      role: "ADMIN",
    } as never);
    const follow = {
      id: peer.newId("gina"),
      type: "Follow",
      actor: peer.actorUrl("gina"),
      object: site.actorUrl,
    };
    await peer.send(site.inboxUrl, follow, { as: "gina" });
    await peer.waitFor((r) => r.inbox === "/users/gina/inbox" && r.activity.type === "Accept");
    await site.services.fediverseAdmin.block(admin, `@gina@${peer.host}`);
    expect(
      await site.db
        .select()
        .from(fediverseFollowers)
        .where(eq(fediverseFollowers.actorId, peer.actorUrl("gina"))),
    ).toHaveLength(0);
    const reply = note("gina", stanzaUrl, "<p>after the block</p>");
    await peer.send(site.inboxUrl, create("gina", reply), { as: "gina" });
    expect(
      await site.db.select().from(whispers).where(eq(whispers.remoteNoteId, reply.id)),
    ).toHaveLength(0);

    // The poet had approved alice's replies; blocking her server hides them again.
    const aliceId = await authorUserId("alice");
    await site.db.update(whispers).set({ isApproved: true }).where(eq(whispers.userId, aliceId));
    await site.services.fediverseAdmin.block(admin, peer.host);
    const refused = await peer.send(
      site.inboxUrl,
      create("alice", note("alice", stanzaUrl, "<p>more</p>")),
    );
    expect(refused.status).toBe(403);
    const aliceWhispers = await site.db.select().from(whispers).where(eq(whispers.userId, aliceId));
    expect(aliceWhispers.length).toBeGreaterThan(0);
    expect(aliceWhispers.every((row) => !row.isApproved)).toBe(true);
  });

  async function authorUserId(name: string): Promise<string> {
    const { remoteAccounts } = await import("../../server/db/schema.ts");
    const [row] = await site.db
      .select({ userId: remoteAccounts.userId })
      .from(remoteAccounts)
      .where(eq(remoteAccounts.actorUrl, peer.actorUrl(name)));
    if (!row?.userId) throw new Error(`${name} is not a remote author`);
    return row.userId;
  }
});
