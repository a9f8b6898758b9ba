import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscriptions } from "../../server/db/schema.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { signIn } from "../helpers/session.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("subscriptions on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let address = 0;
  const subscribe = (email: string, headers: Record<string, string> = {}) =>
    api(t.app, "POST", "/api/subscribe", {
      body: { email },
      headers: { "X-Forwarded-For": `192.0.2.${++address}`, ...headers },
    });

  async function confirmationLinks(email: string, since: number) {
    const mail = await smtp.waitFor(email, since);
    const text = mail.parsed.text ?? "";
    const verify = new URL(/https?:\/\/\S+\/api\/subscribe\/verify\?\S+/.exec(text)?.[0] ?? "");
    const unsubscribe = new URL(/https?:\/\/\S+\/unsubscribe\?\S+/.exec(text)?.[0] ?? "");
    return { mail, verify, unsubscribe };
  }

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp(driver, { env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("mails a confirmation link; opening it verifies; the CSV then lists the address", async () => {
    const since = smtp.messages.length;
    const response = await subscribe("Reader@Example.com");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      message: "Please check your email to confirm your subscription.",
    });
    const { mail, verify } = await confirmationLinks("reader@example.com", since);
    expect(mail.parsed.subject).toBe("Confirm your subscription to Ember Verse");
    const header = (name: string) =>
      mail.parsed.headerLines.find((line) => line.key === name)?.line ?? "";
    expect(header("list-unsubscribe-post")).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
    expect(header("list-unsubscribe")).toMatch(
      /<http:\/\/localhost:3000\/api\/unsubscribe\?s=\d+&sig=[^>]+>/,
    );
    expect(mail.parsed.html).toContain("Confirm subscription");
    const [stored] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "reader@example.com"));
    expect(stored?.verified).toBe(false);
    expect(stored?.token).not.toBe(verify.searchParams.get("token"));

    const opened = await t.app.request(verify.pathname + verify.search);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/subscribe/confirmed?verified=1");
    const again = await t.app.request(verify.pathname + verify.search);
    expect(again.headers.get("location")).toBe("/subscribe/confirmed?verified=1");

    const admin = await signIn(t, "poet@example.com", { admin: true });
    const csv = await t.app.request("/api/admin/subscribers.csv", { headers: { Cookie: admin } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="subscribers.csv"');
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("email,verifiedAt,createdAt");
    expect(lines[1]).toMatch(/^reader@example\.com,\d{4}-/);
  });

  it("answers the same for new, pending and verified addresses", async () => {
    const bodies = await Promise.all(
      ["fresh@example.com", "fresh@example.com", "reader@example.com"].map(async (email) =>
        (await subscribe(email)).text(),
      ),
    );
    expect(new Set(bodies).size).toBe(1);
  });

  it("sends an unknown or tampered token to a page that explains, changing nothing", async () => {
    for (const query of ["token=nope", "", "token="]) {
      const response = await t.app.request(`/api/subscribe/verify?${query}`);
      expect(response.headers.get("location")).toBe("/subscribe/invalid");
    }
    const [pending] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "fresh@example.com"));
    expect(pending?.verified).toBe(false);
  });

  it("unsubscribes with one click and no session, and re-subscribing needs verification again", async () => {
    const since = smtp.messages.length;
    await subscribe("leaver@example.com");
    const { verify, unsubscribe } = await confirmationLinks("leaver@example.com", since);
    await t.app.request(verify.pathname + verify.search);
    const oneClick = await t.app.request(`/api/unsubscribe${unsubscribe.search}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://mail.example",
      },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "leaver@example.com"));
    expect(row).toMatchObject({ unsubscribed: true, unsubscribedAt: expect.any(Date) });
    // The old confirmation link no longer works.
    expect((await t.app.request(verify.pathname + verify.search)).headers.get("location")).toBe(
      "/subscribe/invalid",
    );

    const resubscribed = smtp.messages.length;
    await subscribe("leaver@example.com");
    await confirmationLinks("leaver@example.com", resubscribed);
    const [again] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "leaver@example.com"));
    expect(again).toMatchObject({ unsubscribed: false, verified: false });
  });

  it("leads a browser's GET of the one-click address to the page that asks, changing nothing", async () => {
    const since = smtp.messages.length;
    await subscribe("opener@example.com");
    const { mail, unsubscribe } = await confirmationLinks("opener@example.com", since);
    const header = mail.parsed.headerLines.find((line) => line.key === "list-unsubscribe")?.line;
    const oneClick = new URL(/<([^>]+)>/.exec(header ?? "")?.[1] ?? "");
    const opened = await t.app.request(oneClick.pathname + oneClick.search);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/unsubscribe${unsubscribe.search}`);
    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "opener@example.com"));
    expect(row?.unsubscribed).toBe(false);
    // What the page shows of the address: enough for its owner, not the address itself.
    const sig = unsubscribe.searchParams.get("sig") ?? "";
    expect(await t.services.subscriptions.maskedAddress(row?.id ?? 0, sig)).toBe(
      "o•••r@example.com",
    );
    expect(await t.services.subscriptions.maskedAddress(row?.id ?? 0, "forged")).toBeUndefined();
  });

  it("refuses a tampered unsubscribe link", async () => {
    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "reader@example.com"));
    const response = await t.app.request(`/api/unsubscribe?s=${row?.id}&sig=forged`, {
      method: "POST",
    });
    expect(response.status).toBe(400);
    const [after] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, "reader@example.com"));
    expect(after?.unsubscribed).toBe(false);
  });

  it("refuses invalid and over-long addresses with the spec's message, storing nothing", async () => {
    const before = (await t.db.select().from(subscriptions)).length;
    for (const email of ["nope", "", `${"a".repeat(250)}@example.com`]) {
      const response = await subscribe(email);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe("Please enter a valid email address");
    }
    expect(await t.db.select().from(subscriptions)).toHaveLength(before);
  });

  it("limits subscribe requests per address (429)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await subscribe("limited@example.com")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("neutralises spreadsheet formulas in the CSV and keeps it for admins", async () => {
    await t.db
      .insert(subscriptions)
      .values({ email: "=cmd|'/c calc'!a1@example.com", verified: true, verifiedAt: new Date() });
    const admin = await signIn(t, "poet2@example.com", { admin: true });
    const csv = await (
      await t.app.request("/api/admin/subscribers.csv", { headers: { Cookie: admin } })
    ).text();
    expect(csv).toContain("'=cmd|'/c calc'!a1@example.com");
    expect(csv).not.toMatch(/\r\n=cmd/);
    expect((await t.app.request("/api/admin/subscribers.csv")).status).toBe(401);
    const reader = await signIn(t, "someone@example.com");
    expect(
      (await t.app.request("/api/admin/subscribers.csv", { headers: { Cookie: reader } })).status,
    ).toBe(403);
  });
});

describe("subscribing in development without SMTP", () => {
  it("returns the verification URL so the link can be opened locally", async () => {
    const t = await createTestApp("pglite");
    try {
      const response = await t.app.request("/api/subscribe", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "dev@example.com" }),
      });
      const body = await response.json();
      expect(body.verificationUrl).toMatch(
        /^http:\/\/localhost:3000\/api\/subscribe\/verify\?token=/,
      );
    } finally {
      await t.close();
    }
  });

  it.each(drivers)(
    "queues the confirmation while the mail server is down and sends it when it is back (%s)",
    async (driver) => {
      const smtp = await startSmtpCapture({ refuse: () => 421 });
      const t = await createTestApp(driver, { env: { SMTP_URL: smtp.url } });
      try {
        const response = await t.app.request("/api/subscribe", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: "patient@example.com" }),
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          message: "Please check your email to confirm your subscription.",
        });
        const queued = async () =>
          (
            await t.db
              .select()
              .from(subscriptions)
              .where(eq(subscriptions.email, "patient@example.com"))
          )[0];
        expect((await queued())?.verificationDueAt).toBeInstanceOf(Date);
        expect(smtp.messages).toHaveLength(0);

        // Not due yet: nothing is tried. Due while the server still refuses: put off again.
        expect(await t.services.subscriptions.sendDueVerifications()).toBe(0);
        const due = () =>
          t.db
            .update(subscriptions)
            .set({ verificationDueAt: new Date(Date.now() - 1000) })
            .where(eq(subscriptions.email, "patient@example.com"));
        await due();
        expect(await t.services.subscriptions.sendDueVerifications()).toBe(1);
        expect((await queued())?.verificationAttempts).toBe(2);
        expect((await queued())?.verificationDueAt?.getTime()).toBeGreaterThan(Date.now());

        smtp.setRefusal(undefined);
        await due();
        expect(await t.services.subscriptions.sendDueVerifications()).toBe(1);
        expect((await queued())?.verificationDueAt).toBeNull();
        const mail = await smtp.waitFor("patient@example.com");
        expect(smtp.messages).toHaveLength(1);
        const link = new URL(
          /https?:\/\/\S+\/api\/subscribe\/verify\?\S+/.exec(mail.parsed.text ?? "")?.[0] ?? "",
        );
        const opened = await t.app.request(link.pathname + link.search);
        expect(opened.headers.get("location")).toBe("/subscribe/confirmed?verified=1");
        expect((await queued())?.verified).toBe(true);
        expect(await t.services.subscriptions.sendDueVerifications()).toBe(0);
      } finally {
        await t.close();
        await smtp.close();
      }
    },
  );

  it.each(drivers)(
    "leaves a confirmation another instance is sending alone until its lease ends, and takes its own back at a restart (%s)",
    async (driver) => {
      const smtp = await startSmtpCapture();
      const t = await createTestApp(driver, { env: { SMTP_URL: smtp.url } });
      try {
        const [row] = await t.db
          .insert(subscriptions)
          .values({
            email: "claimed@example.com",
            verificationDueAt: new Date(Date.now() - 1000),
            verificationAttempts: 1,
            claimedBy: "another instance",
            leaseUntil: new Date(Date.now() + 60_000),
          })
          .returning();
        const { sendDueVerifications, verificationRetries } = t.services.subscriptions;
        expect(await sendDueVerifications()).toBe(0);

        // Its instance died: the lease ends and this one takes it.
        const lapse = () =>
          t.db
            .update(subscriptions)
            .set({ leaseUntil: new Date(Date.now() - 1000) })
            .where(eq(subscriptions.id, row?.id ?? 0));
        await lapse();
        expect(await sendDueVerifications()).toBe(1);
        await smtp.waitFor("claimed@example.com");
        const [sent] = await t.db.select().from(subscriptions);
        expect(sent).toMatchObject({ verificationDueAt: null, claimedBy: null, leaseUntil: null });

        // A claim this process held before a restart is released at once.
        await t.db
          .update(subscriptions)
          .set({
            verificationDueAt: new Date(Date.now() - 1000),
            claimedBy: "this process before its restart",
            leaseUntil: new Date(Date.now() + 60_000),
          })
          .where(eq(subscriptions.id, row?.id ?? 0));
        await verificationRetries.releaseOwnClaims();
        expect(await sendDueVerifications()).toBe(1);
        expect(smtp.messages).toHaveLength(2);
      } finally {
        await t.close();
        await smtp.close();
      }
    },
  );
});
