import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDays, dayInZone } from "../../common/dates.ts";
import { endpoints } from "../../common/endpoints.ts";
import { digestDeliveries, echoes, mailRuns, subscriptions } from "../../server/db/schema.ts";
import { SAMPLE_DIGEST_CONTENT } from "../../server/digest/digest.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createEmber, createPoem, createSubscribers } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("the weekly digest on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let admin: string;

  const runs = async () =>
    wireAnswer(
      endpoints.listDigestRuns,
      await api(t.app, "GET", "/api/admin/digest/runs", { cookie: admin, origin: SITE_ORIGIN }),
    );
  const latestRun = async () => {
    const [run] = await runs();
    if (!run) throw new Error("no digest run yet");
    return run;
  };
  const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.to.includes(email));

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp(driver, {
      env: { SMTP_URL: smtp.url },
      digestSenderOptions: { retryBaseMs: 0, pauseAfterFailures: 4, maxAttempts: 3 },
    });
    admin = await signIn(t, "poet@example.com", { admin: true });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(async () => {
    smtp.setRefusal(undefined);
    await t.db.delete(mailRuns);
    await t.db.delete(subscriptions);
  });

  it("falls back to the spec's sample only while the site has no content of its own", async () => {
    const response = await api(t.app, "GET", "/api/admin/digest/content", {
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(SAMPLE_DIGEST_CONTENT);
  });

  it("fills the content from the site: featured ember, this week's most-echoed stanzas, new poems", async () => {
    const today = dayInZone(t.config.siteTimezone);
    await createEmber(t.db, {
      day: addDays(today, -1),
      text: "The week's ember",
      isFeatured: true,
      featuredAt: new Date(),
    });
    const river = await createPoem(t.db, {
      title: "River",
      slug: "river",
      stanzas: ["one / a", "two / b"],
    });
    const stone = await createPoem(t.db, { title: "Stone", slug: "stone", stanzas: ["only / c"] });
    const old = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    await t.db.insert(echoes).values([
      ...[1, 2, 3].map((n) => ({ poemId: river.id, stanzaIndex: "1", sessionId: `s${n}` })),
      ...[1, 2].map((n) => ({ poemId: stone.id, stanzaIndex: "0", sessionId: `s${n}` })),
      { poemId: river.id, stanzaIndex: "0", sessionId: "s1" },
      // A whole-poem echo and last month's echoes do not count towards this week's stanzas.
      { poemId: river.id, stanzaIndex: "", sessionId: "s9" },
      ...[1, 2, 3, 4, 5].map((n) => ({
        poemId: stone.id,
        stanzaIndex: "0",
        sessionId: `old${n}`,
        createdAt: old,
      })),
    ]);
    const content = await (
      await api(t.app, "GET", "/api/admin/digest/content", { cookie: admin, origin: SITE_ORIGIN })
    ).json();
    expect(content.featuredEmber.text).toBe("The week's ember");
    expect(content.topEchoedStanzas).toEqual([
      { poem: { title: "River", slug: "river" }, stanza: "two / b", stanzaIndex: 1, echoCount: 3 },
      { poem: { title: "Stone", slug: "stone" }, stanza: "only / c", stanzaIndex: 0, echoCount: 2 },
    ]);
    expect(content.newPoems.map((poem: { slug: string }) => poem.slug).sort()).toEqual([
      "river",
      "stone",
    ]);
  });

  it("previews the spec's payload as escaped HTML; bad payloads and non-admins are refused", async () => {
    const hostile = {
      ...SAMPLE_DIGEST_CONTENT,
      newPoems: [
        {
          title: '<img src=x onerror="alert(1)">',
          slug: "x",
          stanzas: ["<script>steal()</script>"],
        },
      ],
    };
    const response = await api(t.app, "POST", "/api/admin/digest/preview", {
      body: hostile,
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(response.status).toBe(200);
    const { html } = await response.json();
    expect(html).toContain("Ember of the Week");
    expect(html).toContain("Lanterns in the Rain");
    expect(html).toContain("42 echoes");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("&lt;script&gt;steal()&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");

    const invalid = await api(t.app, "POST", "/api/admin/digest/preview", {
      body: { topEchoedStanzas: [] },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(invalid.status).toBe(400);
    const reader = await signIn(t, "reader@example.com");
    expect(
      (
        await api(t.app, "POST", "/api/admin/digest/preview", {
          body: hostile,
          cookie: reader,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api(t.app, "POST", "/api/admin/digest/preview", {
          body: hostile,
          cookie: "",
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await api(t.app, "POST", "/api/admin/digest/send", {
          body: { subject: "x" },
          cookie: reader,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(403);
  });

  it("sends one copy to each verified, subscribed address, with one-click unsubscribe headers", async () => {
    const active = ["a@example.com", "b@example.com", "c@example.com"];
    await createSubscribers(t.db, active);
    await createSubscribers(t.db, ["pending@example.com"], { verified: false, verifiedAt: null });
    await createSubscribers(t.db, ["gone@example.com"], {
      unsubscribed: true,
      unsubscribedAt: new Date(),
    });
    const since = smtp.messages.length;

    expect(
      await (
        await api(t.app, "GET", "/api/admin/digest/recipients", {
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).json(),
    ).toEqual({
      recipients: 3,
    });
    const response = await api(t.app, "POST", "/api/admin/digest/send", {
      body: {
        subject: "  This week's embers ",
      },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(response.status).toBe(201);
    const run = await response.json();
    expect(run).toMatchObject({
      subject: "This week's embers",
      status: "sending",
      recipientCount: 3,
      pendingCount: 3,
    });
    const twice = await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "Again" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(twice.status).toBe(409);

    await t.services.digestSender.drain();
    const sent = smtp.messages.slice(since);
    expect(sent.map((mail) => mail.to[0]).sort()).toEqual(active);
    const mail = mailsTo("a@example.com")[0];
    expect(mail?.parsed.subject).toBe("This week's embers");
    expect(mail?.parsed.messageId).toMatch(new RegExp(`^<digest-${run.id}-\\d+@localhost>$`));
    expect(mail?.parsed.text).toContain("EMBER OF THE WEEK");
    expect(mail?.parsed.html).toContain("Unsubscribe");
    const header = (name: string) =>
      mail?.parsed.headerLines.find((line) => line.key === name)?.line;
    expect(header("list-unsubscribe-post")).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
    const oneClick = /<(http[^>]+)>/.exec(header("list-unsubscribe") ?? "")?.[1] ?? "";
    expect(oneClick).toMatch(/\/api\/unsubscribe\?s=\d+&sig=/);

    const finished = await latestRun();
    expect(finished).toMatchObject({
      id: run.id,
      status: "sent",
      sentCount: 3,
      failedCount: 0,
      pendingCount: 0,
    });
    const [stored] = await t.db.select().from(mailRuns).where(eq(mailRuns.id, run.id));
    expect(stored?.sentCount).toBe(3);

    // The one-click link works from the mail client, without a session or an Origin.
    const url = new URL(oneClick);
    const unsubscribed = await t.app.request(url.pathname + url.search, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(unsubscribed.status).toBe(200);
    const [a] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "a@example.com"));
    expect(a?.unsubscribed).toBe(true);

    // A finished run frees the way for the next one.
    expect(
      (
        await api(t.app, "POST", "/api/admin/digest/send", {
          body: { subject: "Next week" },
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(201);
  });

  it("greets a subscriber by the name their subscription has, escaped; one without a name is greeted by no one", async () => {
    await createSubscribers(t.db, ["ada@example.com"], { name: "Ada\n  Lovelace" });
    await createSubscribers(t.db, ["tag@example.com"], { name: "<b>Bold</b> & Co" });
    await createSubscribers(t.db, ["blank@example.com"], { name: "   " });
    await createSubscribers(t.db, ["nameless@example.com"]);
    const since = smtp.messages.length;
    const response = await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "Greetings" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(response.status).toBe(201);
    await t.services.digestSender.drain();
    expect(smtp.messages.slice(since)).toHaveLength(4);

    const [ada] = mailsTo("ada@example.com");
    expect(ada?.parsed.text).toMatch(
      /^.+: the weekly digest\n\nDear Ada Lovelace,\n\nEMBER OF THE WEEK\n/,
    );
    expect(ada?.parsed.html).toMatch(
      /<p [^>]*>Dear Ada Lovelace,<\/p>\s*<h2 [^>]*>Ember of the Week<\/h2>/,
    );
    const [tagged] = mailsTo("tag@example.com");
    expect(tagged?.parsed.html).toContain(">Dear &lt;b&gt;Bold&lt;/b&gt; &amp; Co,</p>");
    expect(tagged?.parsed.text).toContain("\nDear <b>Bold</b> & Co,\n");
    for (const email of ["blank@example.com", "nameless@example.com"]) {
      const [mail] = mailsTo(email);
      expect(mail?.parsed.text).toMatch(/^.+: the weekly digest\n\nEMBER OF THE WEEK\n/);
      expect(mail?.parsed.html).not.toContain("Dear");
    }
    // The preview is written for no one: no greeting.
    const preview = await api(t.app, "POST", "/api/admin/digest/preview", {
      body: SAMPLE_DIGEST_CONTENT,
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(preview.status).toBe(200);
    expect((await preview.json()).html).not.toContain("Dear");
  });

  it("never mails an address that unsubscribed after the run was queued", async () => {
    await createSubscribers(t.db, ["stay@example.com", "leave@example.com"]);
    const since = smtp.messages.length;
    await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "Embers" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    await t.db
      .update(subscriptions)
      .set({ unsubscribed: true })
      .where(eq(subscriptions.email, "leave@example.com"));
    await t.services.digestSender.drain();
    expect(smtp.messages.slice(since).map((mail) => mail.to[0])).toEqual(["stay@example.com"]);
    const run = await latestRun();
    expect(run).toMatchObject({ status: "sent", recipientCount: 2, sentCount: 1, skippedCount: 1 });
  });

  it("records refused addresses as failed, retries temporary refusals, and the counts balance", async () => {
    const emails = Array.from({ length: 12 }, (_, n) => `r${n}@example.com`);
    await createSubscribers(t.db, emails);
    let tries = 0;
    smtp.setRefusal((to) => {
      if (to === "r3@example.com" || to === "r7@example.com") return 550;
      // The first try to r5 meets a busy server; the retry gets through.
      if (to === "r5@example.com" && ++tries === 1) return 451;
      return undefined;
    });
    const since = smtp.messages.length;
    await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "Embers" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    await t.services.digestSender.drain();
    const received = smtp.messages.slice(since).map((mail) => mail.to[0]);
    expect(received.sort()).toEqual(
      emails.filter((email) => !["r3@example.com", "r7@example.com"].includes(email)).sort(),
    );
    const run = await latestRun();
    expect(run).toMatchObject({
      status: "sent",
      recipientCount: 12,
      sentCount: 10,
      failedCount: 2,
      pendingCount: 0,
    });
    expect(run.sentCount + run.failedCount + run.skippedCount).toBe(run.recipientCount);
    const failed = await t.db
      .select()
      .from(digestDeliveries)
      .where(eq(digestDeliveries.status, "failed"));
    expect(failed.every((row) => /Mailbox unavailable/.test(row.lastError ?? ""))).toBe(true);
  });

  it("pauses a run while the mail server keeps failing, and resumes it where it stopped", async () => {
    const emails = Array.from({ length: 8 }, (_, n) => `p${n}@example.com`);
    await createSubscribers(t.db, emails);
    smtp.setRefusal(() => 421);
    const since = smtp.messages.length;
    await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "Embers" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    await t.services.digestSender.drain();
    const paused = await latestRun();
    expect(paused).toMatchObject({ status: "paused", sentCount: 0, pendingCount: 8 });
    expect(paused.pausedReason).toMatch(/^Mail server failing: .*Try again later/);
    expect(
      (
        await api(t.app, "POST", "/api/admin/digest/send", {
          body: { subject: "Again" },
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(409);

    smtp.setRefusal(undefined);
    const resumed = await api(t.app, "POST", `/api/admin/digest/runs/${paused.id}/resume`, {
      body: {},
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(resumed.status).toBe(200);
    await t.services.digestSender.drain();
    expect(
      smtp.messages
        .slice(since)
        .map((mail) => mail.to[0])
        .sort(),
    ).toEqual(emails);
    const done = await latestRun();
    expect(done).toMatchObject({ status: "sent", sentCount: 8, failedCount: 0 });
    expect(
      (
        await api(t.app, "POST", `/api/admin/digest/runs/${paused.id}/resume`, {
          body: {},
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await api(t.app, "POST", "/api/admin/digest/runs/999999/resume", {
          body: {},
          cookie: admin,
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(404);
  });

  it("releases claims a killed process left behind, and never sends a row another claim holds", async () => {
    await createSubscribers(t.db, ["k1@example.com", "k2@example.com"]);
    await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "Embers" },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    // A claim by a process that died: leased into the future, so no one may take it yet.
    await t.db.update(digestDeliveries).set({
      status: "sending",
      claimedBy: "dead-process",
      leaseUntil: sql`now() + interval '1 hour'`,
    });
    const since = smtp.messages.length;
    await t.services.digestSender.drain();
    expect(smtp.messages.length).toBe(since);
    // Once the lease runs out, the rows are sent, once.
    await t.db.update(digestDeliveries).set({ leaseUntil: sql`now() - interval '1 second'` });
    await t.services.digestSender.drain();
    expect(
      smtp.messages
        .slice(since)
        .map((mail) => mail.to[0])
        .sort(),
    ).toEqual(["k1@example.com", "k2@example.com"]);
  });

  it("rejects a missing or too long subject with a message", async () => {
    const empty = await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "  " },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe("Subject is required");
    const long = await api(t.app, "POST", "/api/admin/digest/send", {
      body: { subject: "x".repeat(201) },
      cookie: admin,
      origin: SITE_ORIGIN,
    });
    expect((await long.json()).message).toBe("Subject is too long");
    expect(await runs()).toEqual([]);
  });
});
