import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { type FediverseSite, startFediverseSite } from "../helpers/fediverse-site.ts";
import { mastodonStatus, readParagraphs } from "../helpers/mastodon-status.ts";

const NBSP = "\u00a0";

/**
 * What a follower on Mastodon sees of a poem (docs/decisions/064-what-a-timeline-shows-of-a-poem.md):
 * the status Mastodon composes from the Create it was delivered, by Mastodon's own rules
 * (tests/helpers/mastodon-status.ts), read paragraph by paragraph and line by line.
 */
describe.each(drivers)("a poem on a Mastodon timeline (%s)", (driver) => {
  let site: FediverseSite;
  let peer: ActivityPubPeer;

  beforeAll(async () => {
    site = await startFediverseSite(driver);
    peer = await startActivityPubPeer();
    await peer.send(site.inboxUrl, {
      id: peer.newId("alice"),
      type: "Follow",
      actor: peer.actorUrl("alice"),
      object: site.actorUrl,
    });
    await peer.waitFor((r) => r.activity.type === "Accept");
  });
  afterAll(async () => {
    await site.services.fediverseOutbound.stop();
    await peer.close();
    await site.close();
  });

  /** Publishes a poem and answers the Create the follower's server was delivered. */
  async function delivered(fields: Parameters<typeof createPoem>[1]) {
    const poem = await createPoem(site.db, fields);
    await site.services.fediverseOutbound.federateNow();
    const received = await peer.waitFor(
      (r) =>
        r.activity.type === "Create" &&
        (r.activity.object as { id: string }).id === `${site.url}/poetry/${poem.slug}`,
    );
    return received.activity;
  }

  const longStanza = (n: number) =>
    Array.from({ length: 6 }, (_, line) => `stanza ${n} line ${line} with words enough to fill it`);

  it("shows the title, the opening stanza as lines, 'Read the poem' with the link, and the cover", async () => {
    const create = await delivered({
      slug: "harbour-at-dusk",
      title: "Harbour at Dusk",
      stanzas: [
        "The boats come in / \u0020\u0020\u0020\u0020their lanterns low, / and salt & tar",
        ...[1, 2, 3].map((n) => longStanza(n).join(" / ")),
      ],
      coverUrl: "/objects/images/harbour.webp",
      coverAlt: "Boats at a quay under an orange sky",
    });
    const status = mastodonStatus(create);
    const poemUrl = `${site.url}/poetry/harbour-at-dusk`;
    expect(status.spoilerText).toBe("");
    expect(status.url).toBe(poemUrl);
    const paragraphs = readParagraphs(status.text);
    expect(paragraphs[0]).toEqual(["Harbour at Dusk"]);
    expect(paragraphs[1]).toEqual([
      "The boats come in",
      `${NBSP.repeat(4)}their lanterns low,`,
      "and salt & tar",
    ]);
    expect(paragraphs[2]).toEqual(["Read the poem:"]);
    expect(paragraphs[3]).toEqual([poemUrl]);
    expect(paragraphs).toHaveLength(4);
    expect(status.text).toContain(`<a href="${poemUrl}"`);
    expect(status.mediaAttachments).toEqual([
      {
        remoteUrl: `${site.url}/objects/images/harbour.webp`,
        description: "Boats at a quay under an orange sky",
        downloaded: true,
      },
    ]);
    // Servers that render the Article keep the whole poem, lines broken, indentation kept.
    const content = (create.object as { content: string }).content;
    expect(content).toContain(`The boats come in<br>${NBSP.repeat(4)}their lanterns low,`);
    expect(content).toContain("stanza 3 line 5 with words enough to fill it");

    // The outbox lists the very Create that was delivered, under its id.
    const outboxPage = (await (
      await fetch(`${site.actorUrl}/outbox?cursor=0`, {
        headers: { Accept: "application/activity+json" },
      })
    ).json()) as { orderedItems: Array<{ id: string; object: { id: string } }> };
    const listed = outboxPage.orderedItems.find((item) => item.object.id === poemUrl);
    expect(listed?.id).toBe(create.id);
  });

  it("shows a short poem whole, stanza by stanza, stored line breaks included, and its card", async () => {
    const create = await delivered({
      slug: "two-lines",
      title: "Two Lines",
      stanzas: ["first light\non the water", "and then / the gulls"],
    });
    const status = mastodonStatus(create);
    const paragraphs = readParagraphs(status.text);
    expect(paragraphs.slice(0, 3)).toEqual([
      ["Two Lines"],
      ["first light", "on the water"],
      ["and then", "the gulls"],
    ]);
    expect(paragraphs[3]).toEqual(["Read the poem:"]);
    expect(status.mediaAttachments).toEqual([
      {
        remoteUrl: `${site.url}/og/stanza/two-lines/0.png`,
        description: "first light\non the water",
        downloaded: true,
      },
    ]);
    expect((create.object as { content: string }).content).toContain("first light<br>on the water");
  });

  it("keeps the stanza's words on Mastodon's main branch, which takes the summary as HTML", async () => {
    const create = await delivered({
      slug: "main-branch",
      title: "Main Branch",
      stanzas: ["a line / \u0020\u0020another line"],
    });
    const status = mastodonStatus(create, { processedText: true });
    expect(status.text).toContain("<h2>Main Branch</h2>");
    expect(status.text).toContain(`a line\n${NBSP.repeat(2)}another line`);
    expect(status.text).toContain("Read the poem:");
    expect(status.text).toContain(`<a href="${site.url}/poetry/main-branch"`);
  });
});
