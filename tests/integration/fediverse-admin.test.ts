import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOCK_TARGET_MESSAGE } from "../../common/schemas/fediverse.ts";
import { fediverseFollowers, remoteAccounts } from "../../server/db/schema.ts";
import { isBlocked } from "../../server/fediverse/blocks.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** The admin's fediverse calls (docs/product/fediverse.md, In the admin; docs/product/api.md). */
describe.each(drivers)("fediverse admin calls on %s", (driver) => {
  let t: TestApp;
  let poet: string;

  beforeAll(async () => {
    t = await createTestApp(driver);
    poet = await signIn(t, "poet@example.com", { admin: true });
    const actors = ["ada", "bo", "cy"].map((name, index) => ({
      actorUrl: `https://${index === 2 ? "far.example" : "near.example"}/users/${name}`,
      handle: `@${name}@${index === 2 ? "far.example" : "near.example"}`,
      name: name === "bo" ? null : `${name} Display`,
      inbox: `https://near.example/users/${name}/inbox`,
      profileUrl: `https://near.example/@${name}`,
      server: index === 2 ? "far.example" : "near.example",
    }));
    await t.db.insert(remoteAccounts).values(actors);
    await t.db.insert(fediverseFollowers).values(
      actors.map((actor, index) => ({
        actorId: actor.actorUrl,
        createdAt: new Date(Date.UTC(2026, 10, 20 + index)),
      })),
    );
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, body?: unknown) =>
    api(t.app, method, path, { cookie: poet, origin: SITE_ORIGIN, body });

  it("lists the followers, newest first, with how many", async () => {
    const response = await call("GET", "/api/admin/fediverse/followers");
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      total: number;
      followers: Array<Record<string, unknown>>;
    };
    expect(page.total).toBe(3);
    expect(page.followers.map((follower) => follower.handle)).toEqual([
      "@cy@far.example",
      "@bo@near.example",
      "@ada@near.example",
    ]);
    expect(page.followers[1]).toMatchObject({
      name: null,
      server: "near.example",
      since: "2026-11-21T00:00:00.000Z",
    });
    const later = (await (await call("GET", "/api/admin/fediverse/followers?offset=2")).json()) as {
      followers: unknown[];
    };
    expect(later.followers).toHaveLength(1);
  });

  it("blocks a server and an account, removing their followers, and unblocks", async () => {
    const refused = await call("POST", "/api/admin/fediverse/blocks", { target: "not a server!" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: BLOCK_TARGET_MESSAGE });

    const server = await call("POST", "/api/admin/fediverse/blocks", { target: "Near.Example" });
    expect(server.status).toBe(201);
    expect(await server.json()).toMatchObject({ kind: "server", value: "near.example" });
    const account = await call("POST", "/api/admin/fediverse/blocks", {
      target: "@cy@far.example",
    });
    expect(await account.json()).toMatchObject({
      kind: "account",
      value: "https://far.example/users/cy",
    });
    const followers = (await (await call("GET", "/api/admin/fediverse/followers")).json()) as {
      total: number;
    };
    expect(followers.total).toBe(0);

    const blocks = (await (await call("GET", "/api/admin/fediverse/blocks")).json()) as Array<{
      id: number;
    }>;
    expect(blocks).toHaveLength(2);
    const [first] = blocks;
    expect((await call("DELETE", `/api/admin/fediverse/blocks/${first?.id}`)).status).toBe(204);
    expect((await call("DELETE", `/api/admin/fediverse/blocks/${first?.id}`)).status).toBe(404);
    expect(
      (await (await call("GET", "/api/admin/fediverse/blocks")).json()) as unknown[],
    ).toHaveLength(1);
  });

  it("blocks a server's subdomains with it, and no name that only ends alike", async () => {
    await t.db.insert(remoteAccounts).values({
      actorUrl: "https://media.wide.example/users/dee",
      handle: "@dee@media.wide.example",
      inbox: "https://media.wide.example/users/dee/inbox",
      server: "media.wide.example",
    });
    await t.db
      .insert(fediverseFollowers)
      .values({ actorId: "https://media.wide.example/users/dee" });
    expect(
      (await call("POST", "/api/admin/fediverse/blocks", { target: "wide.example" })).status,
    ).toBe(201);
    const { isServerBlocked } = t.services.fediverse;
    expect(await isServerBlocked("wide.example")).toBe(true);
    expect(await isServerBlocked("media.wide.example")).toBe(true);
    expect(await isServerBlocked("a.b.wide.example")).toBe(true);
    expect(await isServerBlocked("notwide.example")).toBe(false);
    expect(await isBlocked(t.db, "https://media.wide.example/users/dee")).toBe(true);
    const followers = (await (await call("GET", "/api/admin/fediverse/followers")).json()) as {
      total: number;
    };
    expect(followers.total).toBe(0);
  });

  it("refuses a server's inbox posts from the moment it is blocked until it is unblocked", async () => {
    const { isServerBlocked } = t.services.fediverse;
    // Read once before the block: what was read must not outlive the change.
    expect(await isServerBlocked("quick.example")).toBe(false);
    const added = await call("POST", "/api/admin/fediverse/blocks", { target: "quick.example" });
    expect(added.status).toBe(201);
    expect(await isServerBlocked("quick.example")).toBe(true);
    const { id } = (await added.json()) as { id: number };
    expect((await call("DELETE", `/api/admin/fediverse/blocks/${id}`)).status).toBe(204);
    expect(await isServerBlocked("quick.example")).toBe(false);
  });
});
