import { generateCryptoKeyPair } from "@fedify/fedify";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  fediverseActivities,
  fediverseDeliveries,
  fediversePoemState,
  poems,
} from "../../server/db/schema.ts";
import { createFediverseDelivery } from "../../server/fediverse/delivery.ts";
import {
  createFediversePublishing,
  DELETE_AFTER_UNDO_MS,
  markPoemsAsHistory,
} from "../../server/fediverse/publishing.ts";
import { createLogger } from "../../server/logger.ts";
import { requireAdmin } from "../../server/services/actor.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { startInboxServer } from "../helpers/inbox-server.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const admin = requireAdmin({
  id: "poet",
  name: "Poet",
  email: "poet@example.com",
  role: "ADMIN",
} as Parameters<typeof requireAdmin>[0]);

/**
 * Publishing federates and every delivery is durable and exactly-once per inbox
 * (docs/decisions/047-fediverse-delivery.md), against inboxes that verify each signature with a
 * library other than Fedify.
 */
describe.each(drivers)("fediverse delivery (%s)", (driver) => {
  let t: TestApp;
  let clock: Date;
  let rsa: CryptoKeyPair;
  let inboxes: Awaited<ReturnType<typeof startInboxServer>>;
  const answers = new Map<string, { status: number; headers?: Record<string, string> }[]>();
  let followers: string[] = [];
  let delivery: ReturnType<typeof createFediverseDelivery>;
  let publishing: ReturnType<typeof createFediversePublishing>;

  beforeAll(async () => {
    clock = new Date("2026-11-26T09:00:00Z");
    t = await createTestApp(driver, { now: () => clock });
    rsa = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const ed25519 = await generateCryptoKeyPair("Ed25519");
    inboxes = await startInboxServer({ publicKey: rsa.publicKey, answers });
    const actorUrl = new URL("/fediverse/actor", t.config.publicUrl);
    const deps = {
      db: t.db,
      config: t.config,
      logger: createLogger("silent"),
      now: () => clock,
      ownsDatabase: driver === "pglite",
    };
    delivery = createFediverseDelivery({
      ...deps,
      signer: async () => ({ keyId: new URL("#main-key", actorUrl), privateKey: rsa.privateKey }),
      allowPrivateAddresses: true,
      options: { retryBaseMs: 0, pollMs: 50 },
    });
    publishing = createFediversePublishing({
      ...deps,
      identity: async () => ({
        audience: {
          publicUrl: t.config.publicUrl,
          actorUrl,
          followersUrl: new URL("/fediverse/followers", t.config.publicUrl),
        },
        proofSigner: { keyId: new URL("#ed25519-key", actorUrl), privateKey: ed25519.privateKey },
      }),
      followerInboxes: async () => followers,
    });
  });

  afterAll(async () => {
    await delivery.stop();
    await inboxes.close();
    await t.close();
  });

  beforeEach(async () => {
    inboxes.received.length = 0;
    answers.clear();
    followers = [
      inboxes.inbox("/shared"),
      inboxes.inbox("/users/ann/inbox"),
      inboxes.inbox("/shared"),
    ];
    await t.db.delete(fediverseActivities);
    await t.db.delete(fediversePoemState);
    await t.db.delete(poems);
  });

  /** One reconciliation round and everything it queued sent. */
  async function federate() {
    await publishing.reconcile();
    await delivery.drain();
  }

  const received = (type: string) =>
    inboxes.received.filter(({ activity }) => activity.type === type);

  it("sends one Create of the poem's Article to each inbox, once", async () => {
    const poem = await createPoem(t.db, { title: "Embers at dusk", publishAt: clock });
    await federate();
    await federate();
    const creates = received("Create");
    expect(creates.map(({ inbox }) => inbox).sort()).toEqual(["/shared", "/users/ann/inbox"]);
    const object = creates[0]?.activity.object as Record<string, unknown>;
    expect(object.type).toBe("Article");
    expect(object.id).toBe(new URL(`/poetry/${poem.slug}`, t.config.publicUrl).href);
    expect(object.name).toBe("Embers at dusk");
    expect(creates[0]?.activity.proof).toBeDefined();
    expect(inboxes.refused).toEqual([]);
  });

  it("sends a scheduled poem once its time comes, and a draft never", async () => {
    await createPoem(t.db, { publishAt: new Date(clock.getTime() + 60_000) });
    await createPoem(t.db, { draft: true, publishAt: clock });
    await federate();
    expect(inboxes.received).toEqual([]);
    clock = new Date(clock.getTime() + 61_000);
    await federate();
    expect(received("Create")).toHaveLength(2);
  });

  it("sends Update when the title or stanzas change, and nothing for other edits", async () => {
    const poem = await createPoem(t.db, { publishAt: clock });
    await federate();
    await t.db.update(poems).set({ coverAlt: "a lamp" }).where(eq(poems.id, poem.id));
    await federate();
    expect(received("Update")).toEqual([]);
    await t.db
      .update(poems)
      .set({ stanzas: ["a new / stanza"] })
      .where(eq(poems.id, poem.id));
    await federate();
    const updates = received("Update");
    expect(updates).toHaveLength(2);
    expect(JSON.stringify(updates[0]?.activity.object)).toContain("a new<br>stanza");
  });

  it("sends Delete with a Tombstone only after the Undo, and a new Create on a restore", async () => {
    const poem = await createPoem(t.db, { publishAt: clock });
    await federate();
    await t.services.recentlyDeleted.deletePoem(admin, poem.id);
    await federate();
    expect(received("Delete")).toEqual([]);
    clock = new Date(clock.getTime() + DELETE_AFTER_UNDO_MS + 1000);
    await federate();
    const deletes = received("Delete");
    expect(deletes).toHaveLength(2);
    expect(deletes[0]?.activity.object).toMatchObject({
      type: "Tombstone",
      id: new URL(`/poetry/${poem.slug}`, t.config.publicUrl).href,
    });
    await t.services.recentlyDeleted.restorePoem(admin, poem.id);
    await federate();
    expect(received("Create")).toHaveLength(4);
  });

  it("sends nothing when a deleted poem is restored within the Undo", async () => {
    const poem = await createPoem(t.db, { publishAt: clock });
    await federate();
    await t.services.recentlyDeleted.deletePoem(admin, poem.id);
    await federate();
    await t.services.recentlyDeleted.restorePoem(admin, poem.id);
    clock = new Date(clock.getTime() + DELETE_AFTER_UNDO_MS + 1000);
    await federate();
    expect(inboxes.received.map(({ activity }) => activity.type)).toEqual(["Create", "Create"]);
  });

  it("never sends a poem marked as history", async () => {
    const poem = await createPoem(t.db, { publishAt: clock });
    await markPoemsAsHistory(t.db, [poem.id]);
    await federate();
    expect(inboxes.received).toEqual([]);
  });

  it("retries a 503 and a 429 until the inbox takes it, and delivers it exactly once", async () => {
    followers = [inboxes.inbox("/busy")];
    answers.set("/busy", [{ status: 503 }, { status: 429, headers: { "retry-after": "0" } }]);
    await createPoem(t.db, { publishAt: clock });
    await publishing.reconcile();
    delivery.start();
    await expect.poll(() => inboxes.received.length, { timeout: 10_000 }).toBe(1);
    await delivery.stop();
    const [row] = await t.db.select().from(fediverseDeliveries);
    expect(row).toMatchObject({ state: "sent", attempts: 3, lastStatus: 202 });
    await delivery.drain();
    expect(inboxes.received).toHaveLength(1);
  });

  it("gives up at once on 410 and never sends that delivery again", async () => {
    followers = [inboxes.inbox("/gone")];
    answers.set("/gone", [{ status: 410 }]);
    await createPoem(t.db, { publishAt: clock });
    await federate();
    await delivery.drain();
    const [row] = await t.db.select().from(fediverseDeliveries);
    expect(row).toMatchObject({ state: "failed", attempts: 1, lastStatus: 410 });
    expect(inboxes.received).toEqual([]);
  });
});
