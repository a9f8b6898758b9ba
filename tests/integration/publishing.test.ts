import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { composeProcess } from "../../server/compose.ts";
import { mailRuns, subscriptions } from "../../server/db/schema.ts";
import { nextVisibilityChange } from "../../server/db/visibility.ts";
import { createLogger } from "../../server/logger.ts";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { startCachedServer } from "../helpers/cached-server.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createSubscribers, ensureTags } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Monday 30 November 2026, 08:00 UTC: the tests' clock starts here and only they move it. */
const START = new Date("2026-11-30T08:00:00.000Z");
const MINUTE = 60_000;

/** Decision 022: drafts and scheduled poems, and the weekly digest that sends itself. */
describe.each(drivers)("the poet's week on %s", (driver) => {
  let t: TestApp;
  let clock: Date;
  let admin: string;
  let tagId: number;

  /** The admin's call, or another's with `cookie`. */
  const call = (method: string, path: string, body?: unknown, cookie = admin) =>
    api(t.app, method, path, { body, cookie, origin: SITE_ORIGIN });
  const poemBody = (slug: string, fields: Record<string, unknown> = {}) => ({
    title: `Poem ${slug}`,
    slug,
    stanzas: ["first / line", "second"],
    tagIds: [tagId],
    ...fields,
  });
  const slugsReadersSee = async () =>
    ((await (await t.app.request("/api/poems")).json()) as { slug: string }[]).map(
      (poem) => poem.slug,
    );

  beforeAll(async () => {
    clock = START;
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, { pageHandler, now: () => clock });
    admin = await signIn(t, "poet@example.com", { admin: true });
    const [tag] = await ensureTags(t.db, ["Week"]);
    tagId = tag?.id ?? 0;
  }, 120_000);
  afterAll(() => t.close());

  describe("drafts and scheduled poems", () => {
    it("publishes the spec's payload at once, keeps a draft from readers, and shows it to the admin", async () => {
      const published = await call("POST", "/api/admin/poems", poemBody("at-once"));
      expect(published.status).toBe(201);
      expect(await published.json()).toMatchObject({
        draft: false,
        publishAt: START.toISOString(),
      });
      const draft = await call("POST", "/api/admin/poems", poemBody("a-draft", { draft: true }));
      expect(draft.status).toBe(201);
      const { id } = await draft.json();
      expect(await slugsReadersSee()).toEqual(["at-once"]);
      const page = await t.app.request("/poetry/a-draft");
      expect(page.status).toBe(404);
      expect(await page.text()).toContain("Poem not found");
      // The admin opens it at its real address and sees it as readers will, under a banner.
      const preview = await t.app.request("/poetry/a-draft", { headers: { Cookie: admin } });
      expect(preview.status).toBe(200);
      const html = await preview.text();
      expect(html).toContain("Draft — only you can see this");
      expect(html).toContain("Poem a-draft");
      // An update without the fields keeps the draft a draft.
      await call("PUT", `/api/admin/poems/${id}`, poemBody("a-draft", { title: "Still a draft" }));
      expect(await slugsReadersSee()).toEqual(["at-once"]);
      // Published later without a time: published then, not when it was drafted.
      const savedClock = clock;
      clock = new Date(START.getTime() + MINUTE);
      const madePublic = await call(
        "PUT",
        `/api/admin/poems/${id}`,
        poemBody("a-draft", { draft: false }),
      );
      expect(await madePublic.json()).toMatchObject({
        draft: false,
        publishAt: clock.toISOString(),
      });
      clock = savedClock;
      expect(await slugsReadersSee()).toEqual(expect.arrayContaining(["at-once"]));
    });

    it("shows a scheduled poem at its publishAt and not a moment before", async () => {
      const publishAt = new Date(START.getTime() + 60 * MINUTE).toISOString();
      const created = await call(
        "POST",
        "/api/admin/poems",
        poemBody("on-the-hour", { publishAt }),
      );
      expect(await created.json()).toMatchObject({ draft: false, publishAt });
      expect(await slugsReadersSee()).not.toContain("on-the-hour");
      const banner = await t.app.request("/poetry/on-the-hour", { headers: { Cookie: admin } });
      expect(await banner.text()).toContain("Scheduled for");
      clock = new Date(START.getTime() + 59 * MINUTE);
      expect(await slugsReadersSee()).not.toContain("on-the-hour");
      clock = new Date(START.getTime() + 60 * MINUTE);
      expect(await slugsReadersSee()).toContain("on-the-hour");
      expect((await t.app.request("/poetry/on-the-hour")).status).toBe(200);
      clock = START;
    });

    it("publishes a draft from its page's banner: the admin's post from this site, nothing else", async () => {
      const created = await call(
        "POST",
        "/api/admin/poems",
        poemBody("banner-draft", { draft: true }),
      );
      const { id } = (await created.json()) as { id: number };
      const page = await t.app.request("/poetry/banner-draft", { headers: { Cookie: admin } });
      const html = await page.text();
      expect(html).toContain("Draft — only you can see this");
      expect(html).toContain(`href="/admin?edit=${id}"`);
      // Posted as a browser posts it: to the page's own address on the site, whose origin it names.
      const publish = (headers: Record<string, string>) =>
        t.app.request(`${SITE_ORIGIN}/poetry/banner-draft`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
          body: new URLSearchParams({ intent: "publish", poemId: String(id) }).toString(),
        });
      // Another site's page (refused by the router itself, 400), or a reader, cannot publish it.
      expect((await publish({ Cookie: admin, Origin: "https://elsewhere.example" })).status).toBe(
        400,
      );
      expect((await publish({ Cookie: admin })).status).toBe(403);
      const reader = await signIn(t, "banner-reader@example.com");
      expect((await publish({ Cookie: reader, Origin: SITE_ORIGIN })).status).toBe(403);
      expect((await publish({ Origin: SITE_ORIGIN })).status).toBe(403);
      expect(await slugsReadersSee()).not.toContain("banner-draft");

      const published = await publish({ Cookie: admin, Origin: SITE_ORIGIN });
      expect(published.status).toBe(303);
      expect(published.headers.get("Location")).toBe("/poetry/banner-draft?published");
      expect(await slugsReadersSee()).toContain("banner-draft");
      const after = await t.app.request("/poetry/banner-draft?published", {
        headers: { Cookie: admin },
      });
      expect(await after.text()).toContain("Published — readers can see this poem now");
      const poem = (await (await t.app.request("/api/poems/banner-draft")).json()) as {
        publishAt: string;
      };
      expect(poem.publishAt).toBe(clock.toISOString());
    });

    it("previews the poem form's unsaved values on the poem's page, for the admin only", async () => {
      const form = new URLSearchParams({
        poem: JSON.stringify({
          ...poemBody("not-saved-yet", { title: "Not Saved Yet" }),
          stanzas: ["the lamp / \u00a0 \u00a0burns low"],
          audioUrl: "",
          coverUrl: "http://elsewhere.example/cover.jpg",
          coverAlt: "",
          coverWidth: null,
          coverHeight: null,
        }),
      }).toString();
      const preview = (cookie: string) =>
        t.app.request("/poetry/not-saved-yet?preview", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
          body: form,
        });
      const shown = await preview(admin);
      expect(shown.status).toBe(200);
      expect(shown.headers.get("Cache-Control")).toContain("no-store");
      const html = await shown.text();
      expect(html).toContain("Preview of your unsaved poem — only you can see this");
      expect(html).toContain("Not Saved Yet");
      expect(html).toContain("the lamp");
      // A cover readers' browsers would refuse is not shown in the preview either.
      expect(html).not.toContain("elsewhere.example/cover.jpg");
      expect((await preview(await signIn(t, "peeker@example.com"))).status).toBe(403);
      expect((await t.app.request("/api/poems/not-saved-yet")).status).toBe(404);
    });

    it("answers 404 at every door of a poem readers may not see yet", async () => {
      const reader = await signIn(t, "reader@example.com");
      await call("POST", "/api/admin/poems", poemBody("hidden-doors", { draft: true }));
      const doors: [string, string, unknown?][] = [
        ["GET", "/api/poems/hidden-doors"],
        ["GET", "/api/poems/hidden-doors/echos"],
        ["POST", "/api/poems/hidden-doors/echo", { stanzaIndex: 0 }],
        ["GET", "/api/poems/hidden-doors/whispers/0"],
        ["POST", "/api/poems/hidden-doors/whispers", { stanzaIndex: 0, body: "hi" }],
        ["POST", "/api/journal", { poemSlug: "hidden-doors", stanzaIndex: 0 }],
        ["PUT", "/api/journal", { poemSlug: "hidden-doors", stanzaIndex: 0 }],
        ["GET", "/api/poems/hidden-doors/journal"],
        ["GET", "/poetry/hidden-doors"],
        ["GET", "/share/poem/hidden-doors?s=0"],
        ["GET", "/og/stanza/hidden-doors/0.png"],
      ];
      for (const [method, path, body] of doors) {
        const response = await call(method, path, body, reader);
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    });

    it("lists drafts first, then scheduled poems, then the published, for the admin", async () => {
      const listed = (await (await call("GET", "/api/admin/poems")).json()) as {
        slug: string;
        draft: boolean;
        publishAt: string;
      }[];
      const state = (poem: (typeof listed)[number]) =>
        poem.draft ? "draft" : new Date(poem.publishAt) > clock ? "scheduled" : "published";
      const states = listed.map(state);
      const rank = { draft: 0, scheduled: 1, published: 2 };
      expect(states).toEqual([...states].sort((a, b) => rank[a] - rank[b]));
      expect(states).toContain("draft");
      expect(states).toContain("scheduled");
      expect((await call("GET", "/api/admin/poems", undefined, "")).status).toBe(401);
    });

    it("refuses a publishAt that does not parse and a draft that is not a boolean", async () => {
      for (const [fields, field] of [
        [{ publishAt: "next friday" }, "publishAt"],
        [{ publishAt: "2026-12-01" }, "publishAt"],
        [{ draft: "yes" }, "draft"],
      ] as const) {
        const response = await call("POST", "/api/admin/poems", poemBody("refused", fields));
        expect(response.status, JSON.stringify(fields)).toBe(400);
        const body = (await response.json()) as { message: string; errors: object };
        expect(Object.keys(body.errors)).toEqual([field]);
        if (field === "publishAt") expect(body.message).toBe("Invalid date format");
      }
      expect((await t.app.request("/api/admin/poems")).status).toBe(401);
    });
  });

  it("ends a cached list the moment a scheduled poem comes due, with no write and no restart", async () => {
    const { build } = await loadPageHandler();
    const { cache, base, close } = await startCachedServer(t, build, {
      nextVisibilityChange: () => nextVisibilityChange(t.db, clock, t.config.siteTimezone),
      now: () => clock.getTime(),
    });
    try {
      const publishAt = new Date(START.getTime() + 30 * MINUTE);
      await call("POST", "/api/admin/poems", poemBody("half-past", { publishAt }));
      const poetry = async () => (await fetch(`${base}/poetry`)).text();
      expect(await poetry()).not.toContain("Poem half-past");
      await vi.waitUntil(() => cache.stats().entries > 0);
      expect(await poetry()).not.toContain("Poem half-past");
      expect(cache.stats().hits).toBe(1);
      clock = publishAt;
      expect(await poetry()).toContain("Poem half-past");
    } finally {
      clock = START;
      await close();
    }
  });

  describe("the weekly digest that sends itself", () => {
    const runs = () => t.db.select().from(mailRuns).orderBy(mailRuns.id);

    it("keeps the schedule, names the next send, and refuses bad fields by name", async () => {
      expect(await (await call("GET", "/api/admin/digest/schedule")).json()).toEqual({
        enabled: false,
        weekday: 0,
        time: "09:00",
        timezone: "UTC",
        nextSendAt: null,
      });
      const saved = await call("PUT", "/api/admin/digest/schedule", {
        enabled: true,
        weekday: 1,
        time: "09:00",
      });
      expect(saved.status).toBe(200);
      expect(await saved.json()).toMatchObject({
        enabled: true,
        weekday: 1,
        time: "09:00",
        nextSendAt: "2026-11-30T09:00:00.000Z",
      });
      for (const [body, field] of [
        [{ enabled: true, weekday: 7, time: "09:00" }, "weekday"],
        [{ enabled: true, weekday: 1, time: "9:00" }, "time"],
        [{ enabled: "yes", weekday: 1, time: "09:00" }, "enabled"],
      ] as const) {
        const refused = await call("PUT", "/api/admin/digest/schedule", body);
        expect(refused.status).toBe(400);
        const answer = (await refused.json()) as { message: string; errors: object };
        expect(Object.keys(answer.errors)).toEqual([field]);
        expect(answer.message).toContain(field);
      }
      expect((await call("PUT", "/api/admin/digest/schedule", {}, "")).status).toBe(401);
    });

    it("sends once when due, from two instances at once, with the default subject", async () => {
      await createSubscribers(t.db, ["one@example.com", "two@example.com"]);
      const { services: other, close: closeOther } = await composeProcess({
        config: t.config,
        logger: createLogger("silent"),
        handle: t.handle,
        now: () => clock,
      });
      clock = new Date("2026-11-30T08:59:00.000Z");
      await t.services.digest.sendScheduledDigest();
      expect(await runs()).toEqual([]);
      clock = new Date("2026-11-30T09:00:30.000Z");
      await Promise.all([
        t.services.digest.sendScheduledDigest(),
        other.digest.sendScheduledDigest(),
        t.services.digest.sendScheduledDigest(),
      ]);
      clock = new Date("2026-11-30T15:00:00.000Z");
      await other.digest.sendScheduledDigest();
      const sent = await runs();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        subject: "Ember Verse: the week of November 30",
        scheduledFor: new Date("2026-11-30T09:00:00.000Z"),
        recipientCount: 2,
        status: "sending",
      });
      const listed = await (await call("GET", "/api/admin/digest/runs")).json();
      expect(listed[0]).toMatchObject({ scheduledFor: "2026-11-30T09:00:00.000Z" });
      await t.services.digestSender.drain();
      closeOther();
    });

    it("skips a week with nothing new, and lists the skip with its reason", async () => {
      // The next Monday: nothing was published, embered or echoed in the seven days before.
      clock = new Date("2026-12-07T09:00:05.000Z");
      await t.services.digest.sendScheduledDigest();
      const [, skipped] = await runs();
      expect(skipped).toMatchObject({
        status: "skipped",
        skipReason: "Nothing new this week: no poem, ember or echo",
        scheduledFor: new Date("2026-12-07T09:00:00.000Z"),
      });
      const listed = await (await call("GET", "/api/admin/digest/runs")).json();
      expect(listed[0]).toMatchObject({
        status: "skipped",
        skipReason: "Nothing new this week: no poem, ember or echo",
      });
    });

    it("skips a week with no verified subscriber, saying so", async () => {
      await t.db.delete(mailRuns);
      await t.db.delete(subscriptions);
      await createEmber(t.db, { day: "2026-12-13", text: "A small flame" });
      clock = new Date("2026-12-14T09:01:00.000Z");
      await t.services.digest.sendScheduledDigest();
      const [skipped] = await runs();
      expect(skipped).toMatchObject({ status: "skipped", skipReason: "No verified subscribers" });
    });
  });
});
