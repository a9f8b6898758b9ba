import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FediverseReactions, ModeratedWhisper } from "../../common/schemas/admin.ts";
import type { Whisper } from "../../common/schemas/interactions.ts";
import {
  echoes,
  poemBoosts,
  remoteAccounts,
  sessions,
  users,
  whispers,
} from "../../server/db/schema.ts";
import { poemObjectUrl, stanzaObjectUrl } from "../../server/fediverse/object-urls.ts";
import type { RemoteAuthor } from "../../server/fediverse/reactions.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Replies, likes and boosts from the fediverse as the inbox hands them on, verified, to the
 * fediverse reactions service (docs/decisions/046-fediverse-voices.md), and what readers and the
 * poet then see through the API.
 */

const author = (name: string, server = "elsewhere.example"): RemoteAuthor => ({
  actorUrl: `https://${server}/users/${name}`,
  handle: `@${name}@${server}`,
  name: `${name[0]?.toUpperCase()}${name.slice(1)} of ${server}`,
  avatarUrl: `https://${server}/avatars/${name}.png`,
  profileUrl: `https://${server}/@${name}`,
  server,
});

const ada = author("ada");
const ben = author("ben");
const cy = author("cy", "far.example");

let notes = 0;
/** A Mastodon-like reply: the mention of the site's actor, then the words. */
function reply(inReplyTo: string, words: string, from: RemoteAuthor = ada) {
  notes += 1;
  return {
    noteId: `${from.actorUrl}/statuses/${notes}`,
    url: `${from.profileUrl}/${notes}`,
    inReplyTo,
    contentHtml: `<p><span class="h-card"><a href="http://localhost:3000/@poet" class="u-url mention">@<span>poet</span></a></span> ${words}</p>`,
    published: new Date("2026-11-01T10:00:00Z"),
  };
}

describe.each(drivers)("fediverse reactions on %s", (driver) => {
  let t: TestApp;
  let poet: string;
  let reader: string;
  const poemId = (slug: string) => poemObjectUrl(t.config.publicUrl, slug).href;
  const stanzaId = (slug: string, index: number) =>
    stanzaObjectUrl(t.config.publicUrl, slug, index).href;

  const shown = async (slug: string, stanza: number) => {
    const response = await api(t.app, "GET", `/api/poems/${slug}/whispers/${stanza}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Whisper[];
  };
  const moderated = async () => {
    const response = await api(t.app, "GET", "/api/admin/whispers", { cookie: poet });
    expect(response.status).toBe(200);
    return (await response.json()) as ModeratedWhisper[];
  };
  const approve = (id: number) =>
    api(t.app, "POST", `/api/admin/whispers/${id}/approve`, { body: {}, cookie: poet });
  const echoCounts = async (slug: string) =>
    (await (await api(t.app, "GET", `/api/poems/${slug}/echos`)).json()) as Array<{
      stanzaIndex: string;
      count: number;
    }>;
  const reactions = async () => {
    const response = await api(t.app, "GET", "/api/admin/fediverse/reactions", { cookie: poet });
    expect(response.status).toBe(200);
    return (await response.json()) as FediverseReactions;
  };
  const whisperByNote = async (noteId: string) =>
    (await t.db.select().from(whispers).where(eq(whispers.remoteNoteId, noteId)))[0];

  beforeAll(async () => {
    t = await createTestApp(driver);
    await createPoem(t.db, {
      slug: "river",
      title: "River",
      stanzas: ["one / two", "three / four", "five / six"],
    });
    await createPoem(t.db, { slug: "unfinished", draft: true });
    await createPoem(t.db, { slug: "someday", publishAt: new Date("2099-01-01T00:00:00Z") });
    await createPoem(t.db, { slug: "gone", deletedAt: new Date() });
    poet = await signIn(t, "poet@example.com", { admin: true });
    reader = await signIn(t, "reader@example.com");
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.delete(whispers);
    await t.db.delete(echoes);
    await t.db.delete(poemBoosts);
  });

  describe("replies", () => {
    it("become a hidden whisper on the stanza answered, marked from the fediverse, shown with its author once approved", async () => {
      const note = reply(stanzaId("river", 1), "The second stanza stays with me.");
      expect(await t.services.fediverseReactions.receiveReply(ada, note)).toBe("stored");
      // Held for the poet: readers see nothing yet.
      expect(await shown("river", 1)).toEqual([]);
      const [held] = await moderated();
      expect(held).toMatchObject({
        text: "The second stanza stays with me.",
        isApproved: false,
        stanzaIndex: 1,
        stanzaCount: 3,
        poemSlug: "river",
        user: { email: null, isAdmin: false, isBlocked: false },
        fediverse: {
          name: "Ada of elsewhere.example",
          handle: "@ada@elsewhere.example",
          server: "elsewhere.example",
          profileUrl: "https://elsewhere.example/@ada",
          postUrl: note.url,
          isCut: false,
        },
      });
      expect((await approve(held?.id ?? 0)).status).toBe(200);
      const [whisper] = await shown("river", 1);
      expect(whisper).toMatchObject({
        id: held?.id,
        text: "The second stanza stays with me.",
        // The shape every whisper has, userId included: the remote author's user row.
        userId: expect.any(String),
        user: { firstName: "Ada of elsewhere.example", lastName: null, profileImageUrl: null },
        fediverse: {
          handle: "@ada@elsewhere.example",
          server: "elsewhere.example",
          profileUrl: "https://elsewhere.example/@ada",
          postUrl: note.url,
          isCut: false,
        },
      });
      // Its written time, never later than now.
      expect(whisper?.createdAt).toBe("2026-11-01T10:00:00.000Z");
      const [row] = await t.db
        .select({ isRemote: users.isRemote, email: users.email })
        .from(users)
        .where(eq(users.id, whisper?.userId ?? ""));
      expect(row).toEqual({ isRemote: true, email: null });
    });

    it("to the poem land on its first stanza; a reader's own whisper has no fediverse origin", async () => {
      await t.services.fediverseReactions.receiveReply(
        ada,
        reply(poemId("river"), "The whole poem."),
      );
      await api(t.app, "POST", "/api/poems/river/whispers", {
        body: { stanzaIndex: 0, body: "Mine." },
        cookie: reader,
      });
      const list = await moderated();
      const remote = list.find((whisper) => whisper.fediverse !== null);
      expect(remote?.stanzaIndex).toBe(0);
      expect(list.find((whisper) => whisper.fediverse === null)?.user.email).toBe(
        "reader@example.com",
      );
      await approve(remote?.id ?? 0);
      const readers = await shown("river", 0);
      expect(readers.map((whisper) => [whisper.text, whisper.fediverse?.handle ?? null])).toEqual([
        ["Mine.", null],
        ["The whole poem.", "@ada@elsewhere.example"],
      ]);
    });

    it("to nothing readers may see, or to another reply, are ignored and store nothing", async () => {
      for (const target of [
        poemId("no-such-poem"),
        poemId("unfinished"),
        poemId("someday"),
        poemId("gone"),
        stanzaId("river", 3),
        stanzaId("unfinished", 0),
        "https://elsewhere.example/users/ben/statuses/1",
        "http://localhost:3000/books/river",
      ]) {
        expect(await t.services.fediverseReactions.receiveReply(ada, reply(target, "Hello"))).toBe(
          "ignored",
        );
      }
      // Only the mention, no words.
      expect(
        await t.services.fediverseReactions.receiveReply(ada, reply(poemId("river"), "")),
      ).toBe("ignored");
      expect(await t.db.select().from(whispers)).toEqual([]);
    });

    it("store nothing twice when the same Create comes again", async () => {
      const note = reply(stanzaId("river", 2), "Once.");
      expect(await t.services.fediverseReactions.receiveReply(ada, note)).toBe("stored");
      expect(await t.services.fediverseReactions.receiveReply(ada, note)).toBe("stored");
      expect(await t.db.select().from(whispers)).toHaveLength(1);
      expect(await t.db.select().from(remoteAccounts)).toHaveLength(1);
    });

    it("with script or markup are kept as text and answered as text, escaped where shown", async () => {
      const note = {
        ...reply(stanzaId("river", 0), "&lt;script&gt;alert(1)&lt;/script&gt; <b>bold</b>"),
      };
      note.contentHtml += "<script>alert(2)</script>";
      await t.services.fediverseReactions.receiveReply(ada, note);
      const stored = await whisperByNote(note.noteId);
      expect(stored?.text).toBe("<script>alert(1)</script> bold");
      await approve(stored?.id ?? 0);
      expect((await shown("river", 0))[0]?.text).toBe("<script>alert(1)</script> bold");
    });

    it("longer than 280 characters are kept whole for the poet and shown cut with the original post's link", async () => {
      const words = `${"A long answer, ".repeat(30)}the end.`;
      const note = reply(stanzaId("river", 0), words);
      await t.services.fediverseReactions.receiveReply(ada, note);
      const [held] = await moderated();
      expect(held?.text).toBe(words);
      expect(held?.fediverse?.isCut).toBe(true);
      await approve(held?.id ?? 0);
      const [whisper] = await shown("river", 0);
      expect([...new Intl.Segmenter().segment(whisper?.text ?? "")]).toHaveLength(280);
      expect(whisper?.text.endsWith("…")).toBe(true);
      expect(words.startsWith(whisper?.text.slice(0, -1) ?? "-")).toBe(true);
      expect(whisper?.fediverse).toMatchObject({ isCut: true, postUrl: note.url });
    });

    it("are edited by their author's Update (and wait for approval again) and removed by their Delete", async () => {
      const note = reply(stanzaId("river", 1), "First words.");
      await t.services.fediverseReactions.receiveReply(ada, note);
      const id = (await whisperByNote(note.noteId))?.id ?? 0;
      await approve(id);
      // Someone else cannot edit or delete it.
      await t.services.fediverseReactions.updateReply(ben, {
        noteId: note.noteId,
        contentHtml: "<p>Not mine</p>",
      });
      await t.services.fediverseReactions.deleteReply(ben.actorUrl, note.noteId);
      expect(await whisperByNote(note.noteId)).toMatchObject({
        text: "First words.",
        isApproved: true,
      });
      // The same words again change nothing.
      await t.services.fediverseReactions.updateReply(ada, {
        noteId: note.noteId,
        contentHtml: note.contentHtml,
      });
      expect((await whisperByNote(note.noteId))?.isApproved).toBe(true);
      await t.services.fediverseReactions.updateReply(ada, {
        noteId: note.noteId,
        contentHtml: "<p>Second thoughts.</p>",
      });
      expect(await whisperByNote(note.noteId)).toMatchObject({
        text: "Second thoughts.",
        isApproved: false,
      });
      await t.services.fediverseReactions.deleteReply(ada.actorUrl, note.noteId);
      expect(await whisperByNote(note.noteId)).toBeUndefined();
    });

    it("keep the author's details up to date, and store nothing from an author the poet blocked", async () => {
      await t.services.fediverseReactions.receiveReply(ada, reply(poemId("river"), "Hi."));
      const renamed = { ...ada, name: "Ada L." };
      await t.services.fediverseReactions.receiveReply(renamed, reply(poemId("river"), "Again."));
      const [details] = await t.db
        .select()
        .from(remoteAccounts)
        .where(eq(remoteAccounts.actorUrl, ada.actorUrl));
      expect(details?.name).toBe("Ada L.");
      const [user] = await t.db
        .select()
        .from(users)
        .where(eq(users.id, details?.userId ?? ""));
      expect(user?.firstName).toBe("Ada L.");

      const block = await api(t.app, "POST", `/api/admin/readers/${details?.userId}/block`, {
        body: {},
        cookie: poet,
      });
      expect(block.status).toBe(200);
      expect(
        await t.services.fediverseReactions.receiveReply(ada, reply(poemId("river"), "Blocked.")),
      ).toBe("ignored");
      expect(
        await t.services.fediverseReactions.receiveLike(ada, {
          activityId: "https://elsewhere.example/likes/blocked",
          object: poemId("river"),
        }),
      ).toBe("ignored");
      expect(await t.db.select().from(whispers)).toHaveLength(2);
      await api(t.app, "POST", `/api/admin/readers/${details?.userId}/unblock`, {
        body: {},
        cookie: poet,
      });
    });
  });

  describe("likes", () => {
    it("echo the whole poem or the stanza liked, once per remote actor, and Undo takes them back", async () => {
      const voices = t.services.fediverseReactions;
      expect(
        await voices.receiveLike(ada, { activityId: "https://e/likes/1", object: poemId("river") }),
      ).toBe("stored");
      expect(
        await voices.receiveLike(ada, {
          activityId: "https://e/likes/2",
          object: stanzaId("river", 2),
        }),
      ).toBe("stored");
      // The same like again, under another id: still one.
      await voices.receiveLike(ada, { activityId: "https://e/likes/3", object: poemId("river") });
      await voices.receiveLike(ben, { activityId: "https://e/likes/4", object: poemId("river") });
      expect(
        await voices.receiveLike(ben, {
          activityId: "https://e/likes/5",
          object: poemId("unfinished"),
        }),
      ).toBe("ignored");
      expect(
        await voices.receiveLike(ben, {
          activityId: "https://e/likes/6",
          object: stanzaId("river", 9),
        }),
      ).toBe("ignored");
      expect(await echoCounts("river")).toEqual([
        { stanzaIndex: "", count: 2, userHasEchoed: false },
        { stanzaIndex: "2", count: 1, userHasEchoed: false },
      ]);

      // Undo by the Like's id (the latest for that object), and by its object.
      await voices.undoLike(ada.actorUrl, { activityId: "https://e/likes/3", object: null });
      await voices.undoLike(ada.actorUrl, { activityId: null, object: stanzaId("river", 2) });
      // Another actor cannot take back ben's.
      await voices.undoLike(cy.actorUrl, { activityId: "https://e/likes/4", object: null });
      await voices.undoLike(ada.actorUrl, { activityId: "https://e/likes/4", object: null });
      expect(await echoCounts("river")).toEqual([
        { stanzaIndex: "", count: 1, userHasEchoed: false },
      ]);
    });
  });

  it("makes one author of a new account whose activities arrive at once", async () => {
    const dee = author("dee");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? t.services.fediverseReactions.receiveLike(dee, {
              activityId: `https://e/likes/dee-${i}`,
              object: poemId("river"),
            })
          : t.services.fediverseReactions.receiveReply(
              dee,
              reply(stanzaId("river", 0), `${i}`, dee),
            ),
      ),
    );
    expect(results).toEqual(Array(8).fill("stored"));
    const authors = await t.db
      .select()
      .from(remoteAccounts)
      .where(eq(remoteAccounts.actorUrl, dee.actorUrl));
    expect(authors).toHaveLength(1);
    expect(
      await t.db.select().from(users).where(eq(users.firstName, "Dee of elsewhere.example")),
    ).toHaveLength(1);
    expect(await t.db.select().from(echoes)).toHaveLength(1);
    expect(await t.db.select().from(whispers)).toHaveLength(4);
  });

  describe("boosts", () => {
    it("are counted per poem for the poet, once per remote actor, never as echoes, and Undo takes them back", async () => {
      const voices = t.services.fediverseReactions;
      await voices.receiveAnnounce(ada, {
        activityId: "https://e/boosts/1",
        object: poemId("river"),
      });
      // A boost of a stanza counts for its poem, once per actor.
      await voices.receiveAnnounce(ada, {
        activityId: "https://e/boosts/2",
        object: stanzaId("river", 1),
      });
      await voices.receiveAnnounce(ben, {
        activityId: "https://e/boosts/3",
        object: poemId("river"),
      });
      expect(
        await voices.receiveAnnounce(cy, {
          activityId: "https://e/boosts/4",
          object: poemId("someday"),
        }),
      ).toBe("ignored");
      await voices.receiveLike(cy, { activityId: "https://e/likes/9", object: poemId("river") });
      await voices.receiveReply(cy, reply(stanzaId("river", 0), "Hello", cy));
      expect(await echoCounts("river")).toEqual([
        { stanzaIndex: "", count: 1, userHasEchoed: false },
      ]);
      const [river] = await reactions();
      expect(river).toMatchObject({
        slug: "river",
        title: "River",
        boosts: 2,
        likes: 1,
        replies: 1,
      });

      await voices.undoAnnounce(ben.actorUrl, { activityId: "https://e/boosts/3", object: null });
      await voices.undoAnnounce(ada.actorUrl, { activityId: null, object: poemId("river") });
      expect(await reactions()).toEqual([
        expect.objectContaining({ slug: "river", boosts: 0, likes: 1, replies: 1 }),
      ]);
      expect(
        (await api(t.app, "GET", "/api/admin/fediverse/reactions", { cookie: reader })).status,
      ).toBe(403);
    });
  });

  it("hides every whisper of one remote author, or of every author on one server", async () => {
    const voices = t.services.fediverseReactions;
    for (const from of [ada, ada, ben, cy]) {
      await voices.receiveReply(from, reply(stanzaId("river", 0), `From ${from.handle}`, from));
    }
    for (const whisper of await moderated()) await approve(whisper.id);
    expect(await shown("river", 0)).toHaveLength(4);
    expect(await voices.hideWhispersOf({ actorUrl: ada.actorUrl })).toBe(2);
    expect(await voices.hideWhispersOf({ actorUrl: ada.actorUrl })).toBe(0);
    expect(await voices.hideWhispersOf({ server: "Elsewhere.example" })).toBe(1);
    expect((await shown("river", 0)).map((whisper) => whisper.fediverse?.handle)).toEqual([
      "@cy@far.example",
    ]);
  });

  it("lets the poet move any whisper to another stanza of its poem", async () => {
    await t.services.fediverseReactions.receiveReply(
      ada,
      reply(poemId("river"), "About stanza 3."),
    );
    const [held] = await moderated();
    const move = (id: number, stanzaIndex: unknown, cookie = poet) =>
      api(t.app, "POST", `/api/admin/whispers/${id}/move`, { body: { stanzaIndex }, cookie });
    expect((await move(held?.id ?? 0, 5)).status).toBe(400);
    expect((await move(held?.id ?? 0, "two")).status).toBe(400);
    expect((await move(999_999, 1)).status).toBe(404);
    expect((await move(held?.id ?? 0, 2, reader)).status).toBe(403);
    const moved = await move(held?.id ?? 0, 2);
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ message: "Whisper moved to stanza 3" });
    await approve(held?.id ?? 0);
    expect((await shown("river", 2)).map((whisper) => whisper.text)).toEqual(["About stanza 3."]);
    expect(await shown("river", 0)).toEqual([]);
  });

  it("never signs a remote author in, whatever the way in", async () => {
    await t.services.fediverseReactions.receiveReply(ada, reply(poemId("river"), "Hi."));
    const [details] = await t.db
      .select({ userId: remoteAccounts.userId })
      .from(remoteAccounts)
      .where(eq(remoteAccounts.actorUrl, ada.actorUrl));
    const userId = details?.userId ?? "";
    // Every sign-in (emailed or printed link, OpenID Connect) ends in this call, which refuses.
    const context = await t.services.accounts.auth.$context;
    expect(await context.internalAdapter.createSession(userId)).toBeNull();
    // The handle as an address is someone else entirely: a new reader, not the remote author.
    const cookie = await signIn(t, "ada@elsewhere.example");
    const me = await (await api(t.app, "GET", "/api/auth/user", { cookie })).json();
    expect(me.id).not.toBe(userId);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
  });
});
