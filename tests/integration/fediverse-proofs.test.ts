import { detachSignature, verifyProof } from "@fedify/fedify";
import { Activity } from "@fedify/vocab";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poems } from "../../server/db/schema.ts";
import { type ActivityPubPeer, startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { type FediverseSite, startFediverseSite } from "../helpers/fediverse-site.ts";

/**
 * Every activity the site sends carries an object integrity proof that a server can check with
 * nothing but the actor document (docs/decisions/045-federation-layer.md, Keys): each proof is
 * verified here with Fedify's own `verifyProof`, which fetches the key the proof names over HTTP
 * from the site, as a server relaying or forwarding the activity would.
 */
describe.each(drivers)("integrity proofs on %s", (driver) => {
  let site: FediverseSite;
  let peer: ActivityPubPeer;
  // Documents (the actor and its keys) are fetched over HTTP from the site on 127.0.0.1;
  // JSON-LD contexts come from Fedify's preloaded copies.
  const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
  const contextLoader = getDocumentLoader();

  beforeAll(async () => {
    site = await startFediverseSite(driver);
    peer = await startActivityPubPeer();
  });
  afterAll(async () => {
    await site.services.fediverseOutbound.stop();
    await peer.close();
    await site.close();
  });

  /**
   * The key that verified the activity's one proof, or null when it did not verify. A Linked Data
   * signature Fedify adds over the proven activity is taken off first, as Fedify's inbox does.
   */
  async function provenBy(received: Record<string, unknown>) {
    const document = detachSignature(received) as Record<string, unknown>;
    const activity = await Activity.fromJsonLd(document, { documentLoader, contextLoader });
    const proofs = [];
    for await (const proof of activity.getProofs({ documentLoader, contextLoader })) {
      proofs.push(proof);
    }
    expect(proofs).toHaveLength(1);
    const [proof] = proofs;
    if (!proof) return null;
    return verifyProof(document, proof, { documentLoader, contextLoader });
  }

  it("proves the Accept, Create, Update and Delete with a key the actor publishes", async () => {
    const actor = (await (
      await fetch(site.actorUrl, { headers: { Accept: "application/activity+json" } })
    ).json()) as { assertionMethod: Array<{ id: string }> };
    const published = actor.assertionMethod.map((key) => key.id);

    await peer.send(site.inboxUrl, {
      id: peer.newId("alice"),
      type: "Follow",
      actor: peer.actorUrl("alice"),
      object: site.actorUrl,
    });
    await peer.waitFor((r) => r.activity.type === "Accept");
    const poem = await createPoem(site.db, { slug: "proven", title: "Proven" });
    await site.services.fediverseOutbound.federateNow();
    await site.db.update(poems).set({ title: "Proven again" }).where(eq(poems.id, poem.id));
    await site.services.fediverseOutbound.federateNow();
    await site.db.update(poems).set({ draft: true }).where(eq(poems.id, poem.id));
    await site.services.fediverseOutbound.federateNow();

    const types = ["Accept", "Create", "Update", "Delete"];
    for (const type of types) {
      const received = await peer.waitFor((r) => r.activity.type === type);
      expect(received.verified).toBe(true);
      const proof = received.activity.proof as { verificationMethod: string };
      expect(published, type).toContain(proof.verificationMethod);
      const key = await provenBy(received.activity);
      expect(key?.id?.href, type).toBe(proof.verificationMethod);
      expect(key?.controllerId?.href, type).toBe(site.actorUrl);
    }
  });
});
