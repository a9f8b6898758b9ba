import fs from "node:fs";
import path from "node:path";
import { eq, getTableName } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users, whispers } from "../../server/db/schema.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { allTables } from "../security/routes.ts";

const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

describe.each(drivers)("a reader's account on %s", (driver) => {
  let t: TestApp;
  let poet: string;

  beforeAll(async () => {
    t = await createTestApp(driver);
    await createPoem(t.db, { slug: "river", title: "River", stanzas: ["one / two", "three"] });
    poet = await signIn(t, "poet@example.com", { admin: true });
  });
  afterAll(() => t.close());

  const userIdOf = async (email: string) => {
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (!user) throw new Error(`no user ${email}`);
    return user.id;
  };
  const whisper = (cookie: string, body = "A quiet thought.", stanzaIndex = 0) =>
    api(t.app, "POST", "/api/poems/river/whispers", { body: { stanzaIndex, body }, cookie });
  const echo = (cookie: string, stanzaIndex = 0) =>
    api(t.app, "POST", "/api/poems/river/echo", { body: { stanzaIndex }, cookie });
  const listed = async (stanzaIndex = 0) =>
    (await (await t.app.request(`/api/poems/river/whispers/${stanzaIndex}`)).json()) as Array<{
      id: number;
      text: string;
      user: { firstName: string | null; lastName: string | null };
    }>;

  /** Uploads an 8x8 image through the reader's avatar flow and saves it as their avatar. */
  const uploadAvatar = async (cookie: string): Promise<string> => {
    const upload = await api(t.app, "POST", "/api/account/avatar/upload-url", { body: {}, cookie });
    const { uploadURL, objectPath } = (await upload.json()) as Record<string, string>;
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0e7490" } })
      .png()
      .toBuffer();
    const url = new URL(String(uploadURL));
    await t.app.request(url.pathname + url.search, {
      method: "PUT",
      headers: { "Content-Type": "image/png" },
      body: new Uint8Array(png),
    });
    await api(t.app, "PUT", "/api/account", { body: { avatarUrl: objectPath }, cookie });
    return String(objectPath);
  };
  /** The development outbox's messages that name `address`. */
  const outboxMailTo = (address: string) => {
    const outbox = path.join(t.dataDir, "outbox");
    if (!fs.existsSync(outbox)) return [];
    return fs
      .readdirSync(outbox)
      .filter((name) => fs.readFileSync(path.join(outbox, name), "utf8").includes(address));
  };

  describe("name and avatar", () => {
    it("needs sign-in", async () => {
      expect((await api(t.app, "GET", "/api/account")).status).toBe(401);
      const put = await api(t.app, "PUT", "/api/account", { body: { displayName: "Rowan" } });
      expect(put.status).toBe(401);
      expect(await put.text()).toContain("Unauthorized");
    });

    it("shows the email, and a whisper's author as the first word and the rest: 'Rowan A.'", async () => {
      const rowan = await signIn(t, "rowan@example.com");
      expect(await json(await api(t.app, "GET", "/api/account", { cookie: rowan }))).toEqual({
        email: "rowan@example.com",
        displayName: null,
        avatarUrl: null,
      });
      // A whisper written before the reader has a name is Anonymous's, then theirs once named.
      const before = await json(await whisper(rowan, "Before a name."));
      expect(before.user).toMatchObject({ firstName: null, lastName: null });
      const saved = await api(t.app, "PUT", "/api/account", {
        body: { displayName: "  Rowan   Ash Thorne " },
        cookie: rowan,
      });
      expect(saved.status).toBe(200);
      expect(await json(saved)).toEqual({
        email: "rowan@example.com",
        displayName: "Rowan Ash Thorne",
        avatarUrl: null,
      });
      // The very next call, through the session this instance remembers, has the new name.
      const after = await json(await whisper(rowan, "After a name."));
      expect(after.user).toMatchObject({ firstName: "Rowan", lastName: "Ash Thorne" });
      // The public list carries the name as the page shows it ('Rowan A.'), not the surname.
      const whispersListed = await listed();
      expect(whispersListed.find((item) => item.text === "Before a name.")?.user).toMatchObject({
        firstName: "Rowan",
        lastName: "A.",
      });
      expect(JSON.stringify(whispersListed)).not.toContain("Thorne");
      const current = await json(await api(t.app, "GET", "/api/auth/user", { cookie: rowan }));
      expect(current).toMatchObject({ firstName: "Rowan", lastName: "Ash Thorne" });
      // Null (or empty) removes the name again.
      await api(t.app, "PUT", "/api/account", { body: { displayName: "" }, cookie: rowan });
      expect(await json(await api(t.app, "GET", "/api/account", { cookie: rowan }))).toMatchObject({
        displayName: null,
      });
      const [row] = await t.db.select().from(users).where(eq(users.email, "rowan@example.com"));
      expect(row).toMatchObject({ firstName: null, lastName: null, name: "" });
    });

    it("keeps markup as text and removes bidirectional controls", async () => {
      const mallory = await signIn(t, "mallory@example.com");
      const markup = '<img src=x onerror="alert(1)"> <b>Bold</b>';
      const saved = await api(t.app, "PUT", "/api/account", {
        body: { displayName: markup },
        cookie: mallory,
      });
      expect((await json(saved)).displayName).toBe(markup);
      const [row] = await t.db.select().from(users).where(eq(users.email, "mallory@example.com"));
      expect(row).toMatchObject({
        firstName: "<img",
        lastName: 'src=x onerror="alert(1)"> <b>Bold</b>',
      });
      // U+202E would turn "Eve A." and what follows it around; U+2066/U+2069 isolate; U+200F marks.
      const bidi = await api(t.app, "PUT", "/api/account", {
        body: { displayName: "\u202eEve\u202c \u2066Adams\u2069\u200f" },
        cookie: mallory,
      });
      expect((await json(bidi)).displayName).toBe("Eve Adams");
      // A right-to-left name keeps its letters; only the controls go.
      const arabic = await api(t.app, "PUT", "/api/account", {
        body: { displayName: "\u061cليلى أحمد" },
        cookie: mallory,
      });
      expect((await json(arabic)).displayName).toBe("ليلى أحمد");
    });

    it("refuses a name that is too long, not text, or an avatar that was not uploaded here, saving nothing", async () => {
      const nia = await signIn(t, "nia@example.com");
      await api(t.app, "PUT", "/api/account", { body: { displayName: "Nia" }, cookie: nia });
      const cases: Array<[unknown, string, string]> = [
        [
          { displayName: "x".repeat(61) },
          "displayName",
          "Display name must be 60 characters or less",
        ],
        [{ displayName: 42 }, "displayName", "Display name must be text"],
        [
          { avatarUrl: "https://tracker.example/pixel.gif" },
          "avatarUrl",
          "Avatar must be an image uploaded here",
        ],
        [
          { avatarUrl: "/objects/images/not-stored-here" },
          "avatarUrl",
          "Avatar must be an image uploaded here",
        ],
        [
          { displayName: "Nia Two", avatarUrl: "javascript:alert(1)" },
          "avatarUrl",
          "Avatar must be an image uploaded here",
        ],
      ];
      for (const [body, field, message] of cases) {
        const response = await api(t.app, "PUT", "/api/account", { body, cookie: nia });
        expect(response.status, JSON.stringify(body)).toBe(400);
        const answer = await json(response);
        expect(answer.message).toBe(message);
        expect(answer.errors).toHaveProperty(field);
      }
      expect(await json(await api(t.app, "GET", "/api/account", { cookie: nia }))).toMatchObject({
        displayName: "Nia",
        avatarUrl: null,
      });
      // 60 characters as the reader sees them, however many code units.
      const long = await api(t.app, "PUT", "/api/account", {
        body: { displayName: "👍🏽".repeat(60) },
        cookie: nia,
      });
      expect(long.status).toBe(200);
    });

    it("takes an avatar uploaded through the image flow", async () => {
      const ola = await signIn(t, "ola@example.com");
      const upload = await api(t.app, "POST", "/api/account/avatar/upload-url", {
        body: {},
        cookie: ola,
      });
      expect(upload.status).toBe(200);
      const { uploadURL, objectPath } = (await upload.json()) as Record<string, string>;
      const sharp = (await import("sharp")).default;
      const png = await sharp({
        create: { width: 8, height: 8, channels: 3, background: "#c2410c" },
      })
        .png()
        .toBuffer();
      const url = new URL(String(uploadURL));
      const put = await t.app.request(url.pathname + url.search, {
        method: "PUT",
        headers: { "Content-Type": "image/png" },
        body: new Uint8Array(png),
      });
      expect(put.status).toBe(200);
      const saved = await api(t.app, "PUT", "/api/account", {
        body: { avatarUrl: objectPath },
        cookie: ola,
      });
      expect(await json(saved)).toMatchObject({ avatarUrl: objectPath });
      expect((await api(t.app, "POST", "/api/account/avatar/upload-url", {})).status).toBe(401);
    });
  });

  it("exports the reader's journal, whispers and echoes as JSON", async () => {
    const uma = await signIn(t, "uma@example.com");
    await api(t.app, "PUT", "/api/account", { body: { displayName: "Uma Vale" }, cookie: uma });
    await whisper(uma, "Mine to take.", 1);
    await echo(uma, 1);
    await api(t.app, "POST", "/api/poems/river/echo", { body: {}, cookie: uma });
    await api(t.app, "PUT", "/api/journal", {
      body: { poemSlug: "river", stanzaIndex: 0 },
      cookie: uma,
    });
    const response = await api(t.app, "GET", "/api/account/export", { cookie: uma });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain("attachment");
    expect(response.headers.get("cache-control")).toContain("no-store");
    const data = await json(response);
    expect(data.account).toMatchObject({ email: "uma@example.com", displayName: "Uma Vale" });
    expect(data.whispers).toEqual([
      expect.objectContaining({
        poemSlug: "river",
        poemTitle: "River",
        stanza: 2,
        stanzaText: "three",
        text: "Mine to take.",
        isApproved: true,
      }),
    ]);
    expect(data.echoes).toHaveLength(2);
    expect(data.echoes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stanza: null, stanzaText: null }),
        expect.objectContaining({ stanza: 2 }),
      ]),
    );
    // Numbered as readers see them, with the words saved (decision 057).
    expect(data.journal).toEqual([
      expect.objectContaining({ poemSlug: "river", stanza: 1, stanzaText: "one\ntwo" }),
    ]);
    expect(data.digestSubscription).toBeNull();
    expect(JSON.stringify(data)).not.toContain("Rowan");
    expect((await api(t.app, "GET", "/api/account/export")).status).toBe(401);
  });

  it("signs out of every device at once", async () => {
    const phone = await signIn(t, "vera@example.com");
    const laptop = await signIn(t, "vera@example.com");
    expect((await api(t.app, "GET", "/api/account", { cookie: laptop })).status).toBe(200);
    const response = await api(t.app, "POST", "/api/account/sign-out-everywhere", {
      body: {},
      cookie: phone,
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().join(";")).toMatch(/ev\.session_token=;/);
    for (const cookie of [phone, laptop]) {
      expect((await api(t.app, "GET", "/api/auth/user", { cookie })).status).toBe(401);
      expect((await echo(cookie)).status).toBe(401);
    }
    // The account itself stays: signing in again works.
    const again = await signIn(t, "vera@example.com");
    expect((await api(t.app, "GET", "/api/account", { cookie: again })).status).toBe(200);
  });

  describe("deleting the account", () => {
    it("leaves no row of the reader in any table, and the counts follow at once", async () => {
      const wren = await signIn(t, "wren@example.com");
      const otherDevice = await signIn(t, "wren@example.com");
      const id = await userIdOf("wren@example.com");
      await api(t.app, "PUT", "/api/account", { body: { displayName: "Wren Hale" }, cookie: wren });
      await whisper(wren, "Soon gone.", 1);
      await echo(wren, 1);
      await api(t.app, "PUT", "/api/journal", {
        body: { poemSlug: "river", stanzaIndex: 1 },
        cookie: wren,
      });
      const avatar = await uploadAvatar(wren);
      expect((await t.app.request(avatar)).status).toBe(200);
      await api(t.app, "POST", "/api/subscribe", { body: { email: "wren@example.com" } });
      await api(t.app, "POST", "/api/auth/email-link", { body: { email: "wren@example.com" } });
      // The export holds the digest subscription of the reader's address.
      const exported = await json(await api(t.app, "GET", "/api/account/export", { cookie: wren }));
      expect(exported.digestSubscription).toMatchObject({
        email: "wren@example.com",
        confirmed: false,
        unsubscribed: false,
      });
      // Their confirmation and sign-in mails wait in the outbox; another reader's is not theirs.
      await api(t.app, "POST", "/api/subscribe", { body: { email: "kept@example.com" } });
      expect(outboxMailTo("wren@example.com")).toHaveLength(2);
      expect(outboxMailTo("kept@example.com")).toHaveLength(1);
      const count = async () => {
        const counts = (await (await t.app.request("/api/poems/river/echos")).json()) as Array<{
          stanzaIndex: string;
          count: number;
        }>;
        return counts.find((row) => row.stanzaIndex === "1")?.count ?? 0;
      };
      const echoesBefore = await count();
      expect(echoesBefore).toBeGreaterThan(0);
      const everyRow = async () => {
        const found: string[] = [];
        for (const table of allTables) {
          for (const row of await t.db.select().from(table)) {
            const text = JSON.stringify(row);
            if (text.includes(id) || text.toLowerCase().includes("wren@example.com")) {
              found.push(`${getTableName(table)}: ${text}`);
            }
          }
        }
        return found;
      };
      expect((await everyRow()).length).toBeGreaterThan(5);

      const response = await api(t.app, "DELETE", "/api/account", { cookie: wren });
      expect(response.status).toBe(204);
      expect(response.headers.getSetCookie().join(";")).toMatch(/ev\.session_token=;/);
      expect(await everyRow()).toEqual([]);
      // Nothing readers can reach: the avatar's file and its sizes are gone, and so is their mail.
      expect((await t.app.request(avatar)).status).toBe(404);
      expect((await t.app.request(`${avatar}-480.webp`)).status).toBe(404);
      expect(fs.readdirSync(path.join(t.dataDir, "objects", "images")).join()).not.toContain(
        avatar.slice(avatar.lastIndexOf("/") + 1),
      );
      expect(outboxMailTo("wren@example.com")).toEqual([]);
      expect(outboxMailTo("kept@example.com")).toHaveLength(1);
      expect(await count()).toBe(echoesBefore - 1);
      expect((await listed(1)).map((item) => item.text)).not.toContain("Soon gone.");
      // Every device is signed out with it.
      expect((await api(t.app, "GET", "/api/auth/user", { cookie: otherDevice })).status).toBe(401);

      // Twice: the session went with the account.
      const twice = await api(t.app, "DELETE", "/api/account", { cookie: wren });
      expect(twice.status).toBe(401);
      expect(await twice.text()).toContain("Unauthorized");
    });

    it("keeps an avatar that a page still shows (a reader may choose a cover as theirs)", async () => {
      const zed = await signIn(t, "zed@example.com");
      const cover = await uploadAvatar(zed);
      await createPoem(t.db, { slug: "covered", coverUrl: cover });
      expect((await api(t.app, "DELETE", "/api/account", { cookie: zed })).status).toBe(204);
      expect((await t.app.request(cover)).status).toBe(200);
    });

    it("answers a clear error when the account went a moment before (two tabs at once)", async () => {
      const xan = await signIn(t, "xan@example.com");
      const [first, second] = await Promise.all([
        api(t.app, "DELETE", "/api/account", { cookie: xan }),
        api(t.app, "DELETE", "/api/account", { cookie: xan }),
      ]);
      const statuses = [first?.status, second?.status].sort();
      // Both may have been read as signed in before either deleted; the later one is told so.
      expect(statuses[0]).toBe(204);
      expect([401, 404]).toContain(statuses[1]);
      const late = (first?.status === 204 ? second : first) as Response;
      const text = await late.text();
      expect(text).toMatch(/already been deleted|Unauthorized/);
      // The service itself, asked with an actor whose account is gone:
      const ghost = {
        id: "00000000-0000-4000-8000-000000000000",
        email: "ghost@example.com",
        firstName: null,
        lastName: null,
        profileImageUrl: null,
        role: "USER" as const,
        isBlocked: false,
      };
      await expect(t.services.readerAccounts.deleteAccount(ghost)).rejects.toMatchObject({
        status: 404,
        message: "This account has already been deleted",
      });
    });
  });

  describe("blocking", () => {
    it("refuses a blocked reader's echoes and whispers, hides their whispers, and brings back only those the poet had approved", async () => {
      const yara = await signIn(t, "yara@example.com");
      const id = await userIdOf("yara@example.com");
      const approved = (await json(await whisper(yara, "Shown before the block.", 1))).id;
      const hiddenByPoet = (await json(await whisper(yara, "The poet hid this one.", 1))).id;
      await api(t.app, "POST", `/api/admin/whispers/${hiddenByPoet}/hide`, {
        body: {},
        cookie: poet,
      });
      expect((await listed(1)).map((item) => item.id)).toContain(approved);

      const block = await api(t.app, "POST", `/api/admin/readers/${id}/block`, {
        body: {},
        cookie: poet,
      });
      expect(block.status).toBe(200);
      for (const refused of [await echo(yara), await whisper(yara, "Let me in.")]) {
        expect(refused.status).toBe(403);
        expect(await json(refused)).toEqual({ message: "Your account cannot do this" });
      }
      // A session begun after the block knows it too.
      expect((await echo(await signIn(t, "yara@example.com"))).status).toBe(403);
      const shown = (await listed(1)).map((item) => item.id);
      expect(shown).not.toContain(approved);
      expect(shown).not.toContain(hiddenByPoet);
      // Reading, the journal and the account stay theirs.
      expect((await api(t.app, "GET", "/api/journal", { cookie: yara })).status).toBe(200);
      expect(await json(await api(t.app, "GET", "/api/auth/user", { cookie: yara }))).toMatchObject(
        {
          isBlocked: true,
        },
      );
      // The poet sees the writer, their address and the block.
      const moderated = (await (
        await api(t.app, "GET", "/api/admin/whispers", { cookie: poet })
      ).json()) as Array<{ id: number; user: Record<string, unknown> }>;
      expect(moderated.find((item) => item.id === approved)?.user).toMatchObject({
        id,
        email: "yara@example.com",
        isBlocked: true,
        isAdmin: false,
      });
      // Blocking twice changes nothing.
      expect(
        (await api(t.app, "POST", `/api/admin/readers/${id}/block`, { body: {}, cookie: poet }))
          .status,
      ).toBe(200);

      const unblock = await api(t.app, "POST", `/api/admin/readers/${id}/unblock`, {
        body: {},
        cookie: poet,
      });
      expect(unblock.status).toBe(200);
      const back = (await listed(1)).map((item) => item.id);
      expect(back).toContain(approved);
      expect(back).not.toContain(hiddenByPoet);
      expect((await echo(yara)).status).toBe(200);
      expect((await whisper(yara, "Back again.")).status).toBe(201);
      const [stored] = await t.db
        .select()
        .from(whispers)
        .where(eq(whispers.id, Number(hiddenByPoet)));
      expect(stored?.isApproved).toBe(false);
    });

    it.runIf(driver === "postgres")(
      "holds a block or a name made through another instance at the next call, with no statement more",
      async () => {
        const ivy = await signIn(t, "ivy@example.com");
        expect((await echo(ivy)).status).toBe(200);
        // Written behind this instance's back, as another instance would.
        await t.db
          .update(users)
          .set({ blockedAt: new Date(), firstName: "Ivy", lastName: "Stone" })
          .where(eq(users.email, "ivy@example.com"));
        expect((await echo(ivy)).status).toBe(403);
        await t.db.update(users).set({ blockedAt: null }).where(eq(users.email, "ivy@example.com"));
        const written = await json(await whisper(ivy, "From another instance."));
        expect(written.user).toMatchObject({ firstName: "Ivy", lastName: "Stone" });
      },
    );

    it("refuses to block an admin, an unknown reader, or a reader's own call", async () => {
      const poetId = await userIdOf("poet@example.com");
      const admin = await api(t.app, "POST", `/api/admin/readers/${poetId}/block`, {
        body: {},
        cookie: poet,
      });
      expect(admin.status).toBe(400);
      expect(await json(admin)).toMatchObject({ message: "An admin cannot be blocked" });
      const unknown = await api(
        t.app,
        "POST",
        "/api/admin/readers/00000000-0000-4000-8000-000000000000/block",
        { body: {}, cookie: poet },
      );
      expect(unknown.status).toBe(404);
      const malformed = await api(t.app, "POST", "/api/admin/readers/not-a-uuid/block", {
        body: {},
        cookie: poet,
      });
      expect(malformed.status).toBe(400);
      expect(await json(malformed)).toMatchObject({ message: "Reader not found" });
      const zed = await signIn(t, "zed@example.com");
      const asReader = await api(t.app, "POST", `/api/admin/readers/${poetId}/block`, {
        body: {},
        cookie: zed,
      });
      expect(asReader.status).toBe(403);
    });
  });
});
