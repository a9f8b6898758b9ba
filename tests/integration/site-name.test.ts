import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createPoem, createSubscribers } from "../helpers/factories.ts";
import { loadPageHandler } from "../helpers/page-handler.ts";
import { signIn } from "../helpers/session.ts";
import { type CapturedMail, type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Monday 30 November 2026, 08:00 UTC: the tests' clock starts here and only they move it. */
const START = new Date("2026-11-30T08:00:00.000Z");
const TITLE = "Salt & Lantern";
const POET = "Ada Quill";
/** SITE_NAME's default: once the poet has a title, no email, card or page may still say it. */
const DEFAULT_NAME = "Ember Verse";

/**
 * The site's name is the poet's wherever the site names itself (docs/product/admin.md, Site
 * settings): every email's subject, masthead, footer and sender, the share card, the feed, the
 * web manifest and every page's title and header.
 */
describe.each(drivers)("the poet's site name on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let admin: string;
  let clock: Date;
  const call = (method: string, path: string, body?: unknown) =>
    api(t.app, method, path, { body, cookie: admin, origin: SITE_ORIGIN });
  const setTitle = async (siteTitle: string) =>
    expect((await call("PUT", "/api/admin/settings", { siteTitle, poetName: POET })).status).toBe(
      200,
    );
  const card = async () =>
    Buffer.from(await (await t.app.request("/og/stanza/lantern/0.png")).arrayBuffer());

  /** The title in the subject, the masthead and the footer of both parts; the default nowhere. */
  function expectSignedByThePoet(mail: CapturedMail, subject: string) {
    const { parsed } = mail;
    expect(parsed.subject).toBe(subject);
    const html = parsed.html || "";
    const text = parsed.text ?? "";
    expect(html).toContain(
      '<p style="font-size:20px;color:#9f4314;margin:0 0 24px">Salt &amp; Lantern</p>',
    );
    expect(html).toMatch(/border-top[^>]*>Salt &amp; Lantern, poems by Ada Quill · <a /);
    expect(text).toContain("\n--\nSalt & Lantern, poems by Ada Quill\nhttp://localhost:3000/");
    expect(parsed.from?.value).toEqual([{ name: TITLE, address: "no-reply@localhost" }]);
    for (const part of [parsed.subject ?? "", html, text, parsed.from?.text ?? ""]) {
      expect(part).not.toContain(DEFAULT_NAME);
    }
  }

  beforeAll(async () => {
    clock = START;
    smtp = await startSmtpCapture();
    const { pageHandler } = await loadPageHandler();
    t = await createTestApp(driver, {
      pageHandler,
      now: () => clock,
      env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" },
    });
    admin = await signIn(t, "poet@example.com", { admin: true });
    await createPoem(t.db, {
      title: "Lantern",
      slug: "lantern",
      stanzas: ["the salt on the sill / the lamp in the window"],
      publishAt: new Date("2026-11-27T08:00:00.000Z"),
    });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("changes the share card with the title, and only the title", async () => {
    const before = await card();
    await setTitle(TITLE);
    const after = await card();
    expect(after.subarray(1, 4).toString()).toBe("PNG");
    expect(after.equals(before)).toBe(false);
    await setTitle("");
    expect((await card()).equals(before)).toBe(true);
    await setTitle(TITLE);
    expect((await card()).equals(after)).toBe(true);
  });

  it("signs the sign-in email with the poet's title", async () => {
    const since = smtp.messages.length;
    const response = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "reader@example.com" },
      origin: SITE_ORIGIN,
    });
    expect(response.status).toBe(200);
    expectSignedByThePoet(
      await smtp.waitFor("reader@example.com", since),
      `Your sign-in link for ${TITLE}`,
    );
  });

  it("signs the subscription's confirmation with the poet's title", async () => {
    const since = smtp.messages.length;
    const response = await api(t.app, "POST", "/api/subscribe", {
      body: { email: "listener@example.com" },
      headers: { "X-Forwarded-For": "192.0.2.7" },
      origin: SITE_ORIGIN,
    });
    expect(response.status).toBe(200);
    expectSignedByThePoet(
      await smtp.waitFor("listener@example.com", since),
      `Confirm your subscription to ${TITLE}`,
    );
  });

  it("names the scheduled digest by the poet's title in its default subject", async () => {
    await createEmber(t.db, { day: "2026-11-28", isFeatured: true, featuredAt: START });
    await createSubscribers(t.db, ["weekly@example.com"]);
    const schedule = await call("PUT", "/api/admin/digest/schedule", {
      enabled: true,
      weekday: 1,
      time: "09:00",
    });
    expect(schedule.status).toBe(200);
    clock = new Date("2026-11-30T09:00:30.000Z");
    const since = smtp.messages.length;
    await t.services.digest.sendScheduledDigest();
    await t.services.digestSender.drain();
    const mail = await smtp.waitFor("weekly@example.com", since);
    expectSignedByThePoet(mail, `${TITLE}: the week of November 30`);
    expect(mail.parsed.text).toContain(`${TITLE}: the weekly digest`);
    expect(mail.parsed.html).toContain("subscribed to the weekly digest from Salt &amp; Lantern.");
  });

  it("tells a published guest voice where, by the poet's title", async () => {
    const sent = await api(t.app, "POST", "/api/guest-submission", {
      body: {
        name: "Juno Vale",
        email: "juno@example.com",
        poemTitle: "Lamp Room",
        poemText: "The lamp turns\nits one slow thought",
      },
      headers: { "X-Forwarded-For": "192.0.2.8" },
      origin: SITE_ORIGIN,
    });
    expect(sent.status).toBe(201);
    const submissions = (await (await call("GET", "/api/admin/submissions")).json()) as Array<{
      id: number;
      name: string;
    }>;
    const submission = submissions.find((item) => item.name === "Juno Vale");
    const since = smtp.messages.length;
    const published = await call("POST", `/api/admin/submissions/${submission?.id}/publish`, {});
    expect(published.status).toBe(201);
    expectSignedByThePoet(
      await smtp.waitFor("juno@example.com", since),
      `Your poem is published on ${TITLE}`,
    );
  });

  it("titles the feed, the web manifest and every page by the poet's title", async () => {
    const feed = await (await t.app.request("/feed.xml")).text();
    expect(feed).toContain("<title>Salt &amp; Lantern</title>");
    expect(feed).toContain("<author><name>Ada Quill</name></author>");
    const manifest = await (await t.app.request("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({ name: TITLE, short_name: TITLE });
    // Home shows the newest poem, describes itself by the tagline and shows that poem's card.
    const home = await (await t.app.request("/")).text();
    expect(home).toContain('<h2 id="home-poem"');
    expect(home).toContain("the salt on the sill");
    expect(home).toContain(
      '<meta name="description" content="Poems to read slowly, one stanza at a time."/>',
    );
    expect(home).toContain(
      '<meta property="og:image" content="http://localhost:3000/og/stanza/lantern/0.png"/>',
    );
    for (const path of ["/", "/poetry", "/poetry/lantern", "/ember", "/books"]) {
      const html = await (await t.app.request(path)).text();
      expect(html).toMatch(/<title>[^<]* \| Salt &amp; Lantern<\/title>/);
      expect(html).toContain('<meta property="og:site_name" content="Salt &amp; Lantern"/>');
      expect(html).not.toContain(DEFAULT_NAME);
    }
  });
});
