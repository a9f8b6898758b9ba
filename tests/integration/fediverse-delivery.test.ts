import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requireAdmin } from "../../server/core/actor.ts";
import {
  fediverseActivities,
  fediverseBlocks,
  fediverseDeliveries,
  fediverseFollowers,
  fediversePoemState,
  poems,
  remoteAccounts,
} from "../../server/db/schema.ts";
import { addBlock } from "../../server/fediverse/blocks.ts";
import { createFediverseDelivery, enqueueActivity } from "../../server/fediverse/delivery.ts";
import { actorKeyPairs } from "../../server/fediverse/keys.ts";
import { DELETE_AFTER_UNDO_MS } from "../../server/fediverse/publishing.ts";
import { createLogger } from "../../server/logger.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { startInboxServer } from "../helpers/inbox-server.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const admin = requireAdmin({
  id: "poet",
  email: "poet@example.com",
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  role: "ADMIN",
  isBlocked: false,
});

/**
 * Publishing federates and every delivery is durable and exactly-once per inbox
 * (docs/decisions/047-fediverse-delivery.md), to followers whose inboxes check each signature
 * against the site actor's key with a library other than Fedify.
 */
describe.each(drivers)("fediverse delivery (%s)", (driver) => {
  let t: TestApp;
  let clock: Date;
  let inboxes: Awaited<ReturnType<typeof startInboxServer>>;
  const answers = new Map<string, { status: number; headers?: Record<string, string> }[]>();

  beforeAll(async () => {
    clock = new Date("2026-11-26T09:00:00Z");
    t = await createTestApp(driver, {
      now: () => clock,
      env: { FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "true" },
      fediverseDeliveryOptions: { retryBaseMs: 0 },
    });
    const [rsa] = await actorKeyPairs(t.db);
    if (!rsa) throw new Error("no RSA key pair");
    inboxes = await startInboxServer({ publicKey: rsa.publicKey, answers });
  });

  afterAll(async () => {
    await t.services.fediverseOutbound.stop();
    await inboxes.close();
    await t.close();
  });

  /** Followers with these inboxes (a shared inbox where `shared` is given), replacing any. */
  async function follow(...people: { name: string; inbox: string; shared?: string }[]) {
    await t.db.delete(remoteAccounts);
    for (const person of people) {
      const id = inboxes.inbox(`/users/${person.name}`);
      await t.db.insert(remoteAccounts).values({
        actorUrl: id,
        handle: `@${person.name}@localhost`,
        inbox: inboxes.inbox(person.inbox),
        sharedInbox: person.shared ? inboxes.inbox(person.shared) : null,
        server: new URL(id).host,
      });
      await t.db.insert(fediverseFollowers).values({ actorId: id, followId: null });
    }
  }

  beforeEach(async () => {
    inboxes.received.length = 0;
    answers.clear();
    // Two followers on one server share its inbox; a third has only its own.
    await follow(
      { name: "ann", inbox: "/users/ann/inbox", shared: "/shared" },
      { name: "bo", inbox: "/users/bo/inbox", shared: "/shared" },
      { name: "cy", inbox: "/users/cy/inbox" },
    );
    await t.db.delete(fediverseActivities);
    await t.db.delete(fediversePoemState);
    await t.db.delete(poems);
  });

  /** One reconciliation round and everything it queued sent. */
  const federate = () => t.services.fediverseOutbound.federateNow();

  const received = (type: string) =>
    inboxes.received.filter(({ activity }) => activity.type === type);

  it("sends one Create of the poem's Article to each inbox, once", async () => {
    const poem = await createPoem(t.db, { title: "Embers at dusk", publishAt: clock });
    await federate();
    await federate();
    const creates = received("Create");
    expect(creates.map(({ inbox }) => inbox).sort()).toEqual(["/shared", "/users/cy/inbox"]);
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
    expect(updates[0]?.activity.object).toMatchObject({ updated: expect.any(String) });
  });

  it("sends a Delete of the old address and a Create of the new when the slug changes", async () => {
    const poem = await createPoem(t.db, { slug: "old-road", publishAt: clock });
    await federate();
    await t.db.update(poems).set({ slug: "new-road" }).where(eq(poems.id, poem.id));
    await federate();
    // The two go out together, in either order: each names its own object.
    const after = inboxes.received.filter(({ inbox }) => inbox === "/shared").slice(1);
    expect(after.map(({ activity }) => activity.type).sort()).toEqual(["Create", "Delete"]);
    expect(received("Delete")[0]?.activity.object).toMatchObject({
      type: "Tombstone",
      id: new URL("/poetry/old-road", t.config.publicUrl).href,
    });
    expect(received("Create").at(-1)?.activity.object).toMatchObject({
      id: new URL("/poetry/new-road", t.config.publicUrl).href,
    });
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
    // The Tombstone says when the poem was deleted, not when the Delete went out.
    const [deleted] = await t.db.select().from(poems).where(eq(poems.id, poem.id));
    const tombstone = deletes[0]?.activity.object as { deleted: string };
    expect(new Date(tombstone.deleted).getTime()).toBe(deleted?.deletedAt?.getTime());
    expect(new Date(tombstone.deleted).getTime()).toBeLessThan(clock.getTime());
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
    await t.services.fediverseOutbound.markPoemsAsHistory([poem.id]);
    await federate();
    expect(inboxes.received).toEqual([]);
  });

  it("retries a 503 and a 429 until the inbox takes it, and delivers it exactly once", async () => {
    await follow({ name: "dee", inbox: "/busy" });
    answers.set("/busy", [{ status: 503 }, { status: 429, headers: { "retry-after": "0" } }]);
    await createPoem(t.db, { publishAt: clock });
    await federate();
    const [row] = await t.db.select().from(fediverseDeliveries);
    expect(row).toMatchObject({ state: "sent", attempts: 3, lastStatus: 202 });
    await federate();
    expect(inboxes.received).toHaveLength(1);
  });

  it("gives up at once on 410 and never sends that delivery again", async () => {
    await follow({ name: "eve", inbox: "/gone" });
    answers.set("/gone", [{ status: 410 }]);
    await createPoem(t.db, { publishAt: clock });
    await federate();
    await federate();
    const [row] = await t.db.select().from(fediverseDeliveries);
    expect(row).toMatchObject({ state: "failed", attempts: 1, lastStatus: 410 });
    expect(inboxes.received).toEqual([]);
  });

  it("shows the admin each poem's deliveries by state and its latest activity", async () => {
    await follow(
      { name: "fay", inbox: "/fay" },
      { name: "gus", inbox: "/gus" },
      { name: "hal", inbox: "/hal" },
    );
    answers.set("/gus", [{ status: 404 }]);
    answers.set("/hal", [{ status: 503, headers: { "retry-after": "3600" } }]);
    const poem = await createPoem(t.db, { title: "Counted", publishAt: clock });
    await t.services.fediverseOutbound.federateNow();
    const admin = await signIn(t, "poet@example.com", { admin: true });
    const response = await api(t.app, "GET", "/api/admin/fediverse/deliveries", { cookie: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        poemId: poem.id,
        title: "Counted",
        slug: poem.slug,
        sent: 1,
        retrying: 1,
        failed: 1,
        lastActivity: { type: "Create", at: expect.any(String) },
      },
    ]);
    const reader = await signIn(t, "reader@example.com");
    expect(
      (await api(t.app, "GET", "/api/admin/fediverse/deliveries", { cookie: reader })).status,
    ).toBe(403);
  });

  it("never POSTs to a private or loopback address unless allowed", async () => {
    const [rsa] = await actorKeyPairs(t.db);
    if (!rsa) throw new Error("no RSA key pair");
    const guarded = createFediverseDelivery({
      db: t.db,
      config: t.config,
      logger: createLogger("silent"),
      now: () => clock,
      ownsDatabase: driver === "pglite",
      signer: async () => ({
        keyId: new URL("https://example.org/#main-key"),
        privateKey: rsa.privateKey,
      }),
      allowPrivateAddresses: false,
    });
    await t.db.transaction((tx) =>
      enqueueActivity(
        tx,
        {
          activityId: "https://example.org/a/1",
          type: "Create",
          poemId: 1,
          body: { type: "Create" },
        },
        [inboxes.inbox("/loopback-by-name"), "http://127.0.0.1:9/literal", "http://[::1]:9/v6"],
      ),
    );
    await guarded.drain();
    await guarded.stop();
    const rows = await t.db.select().from(fediverseDeliveries);
    expect(rows.map((row) => row.state)).toEqual(["failed", "failed", "failed"]);
    expect(rows.every((row) => row.lastError?.includes("not a public internet address"))).toBe(
      true,
    );
    expect(inboxes.received).toEqual([]);
  });

  it("does not send to a server the poet blocked", async () => {
    await follow({ name: "ivy", inbox: "/ivy" });
    // Only the block row: its follower is still listed, as one whose removal has not run yet.
    await addBlock(t.db, "server", new URL(inboxes.inbox("/")).host);
    await createPoem(t.db, { publishAt: clock });
    await federate();
    const [row] = await t.db.select().from(fediverseDeliveries);
    expect(row).toMatchObject({ state: "failed", lastError: "the poet blocked this server" });
    expect(inboxes.received).toEqual([]);
    await t.db.delete(fediverseBlocks);
  });
});
