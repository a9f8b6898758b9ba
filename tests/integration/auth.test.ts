import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sessions, users, verifications } from "../../server/db/schema.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { cookiesFrom, signIn } from "../helpers/session.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe.each(drivers)("sign-in on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let address = 0;
  /** Each test asks from its own client address, so per-address limits stay per test. */
  const from = () => ({ "X-Forwarded-For": `203.0.113.${++address}` });

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp(driver, {
      env: { SMTP_URL: smtp.url, ADMIN_EMAILS: "poet@example.com", TRUST_PROXY: "1" },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  async function requestLink(email: string, returnTo = "/poetry/a-poem") {
    const since = smtp.messages.length;
    const response = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email, returnTo },
      headers: from(),
    });
    expect(response.status).toBe(200);
    const mail = await smtp.waitFor(email, since);
    const link = /https?:\/\/\S+\/login\/verify\?\S+/.exec(mail.parsed.text ?? "")?.[0];
    if (!link) throw new Error("no link in the mail");
    return { mail, link: new URL(link) };
  }

  async function pressContinue(link: URL) {
    return api(t.app, "POST", "/api/auth/email-link/verify", {
      body: new URLSearchParams({
        token: link.searchParams.get("token") ?? "",
        returnTo: link.searchParams.get("returnTo") ?? "/",
      }),
    });
  }

  it("sends a link by real SMTP; Continue signs in and returns to the page; the link works once", async () => {
    const { mail, link } = await requestLink("reader@example.com");
    expect(mail.parsed.subject).toBe("Your sign-in link for Ember Verse");
    expect(mail.parsed.html).toContain(link.toString().replaceAll("&", "&amp;"));
    expect(link.origin).toBe("http://localhost:3000");
    expect(link.searchParams.get("returnTo")).toBe("/poetry/a-poem");
    // At least 128 bits of randomness, and only a hash is stored.
    const token = link.searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThanOrEqual(22);
    const stored = await t.db.select().from(verifications);
    expect(JSON.stringify(stored)).not.toContain(token);

    const response = await pressContinue(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/poetry/a-poem");
    const setCookie = response.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("ev.session_token="));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);

    const me = await t.app.request("/api/auth/user", {
      headers: { Cookie: cookiesFrom(response) },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      email: "reader@example.com",
      role: "USER",
      authenticated: true,
      firstName: null,
      lastName: null,
      profileImageUrl: null,
    });

    const again = await pressContinue(link);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toMatch(/^\/login\?error=invalid-link/);
    expect(cookiesFrom(again)).not.toContain("ev.session_token");
  });

  it("refuses an expired link and a tampered one, changing nothing", async () => {
    const { link } = await requestLink("late@example.com");
    await t.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await pressContinue(link);
    expect(expired.headers.get("location")).toMatch(/^\/login\?error=invalid-link/);

    const tampered = new URL(link);
    tampered.searchParams.set("token", `${link.searchParams.get("token")}x`);
    const refused = await pressContinue(tampered);
    expect(refused.headers.get("location")).toMatch(/^\/login\?error=invalid-link/);
    expect(await t.db.select().from(users).where(eq(users.email, "late@example.com"))).toEqual([]);
  });

  it("answers the same for known and unknown addresses", async () => {
    await signIn(t, "known@example.com");
    const known = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "known@example.com" },
      headers: from(),
    });
    const unknown = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "nobody@example.com" },
      headers: from(),
    });
    expect(known.status).toBe(unknown.status);
    expect(await known.text()).toBe(await unknown.text());
  });

  it("refuses a malformed email with the spec's message", async () => {
    for (const email of ["not-an-email", "", "a@b", `${"x".repeat(250)}@example.com`]) {
      const response = await api(t.app, "POST", "/api/auth/email-link", {
        body: { email },
        headers: from(),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe("Please enter a valid email address");
    }
    const malformed = await t.app.request("/api/auth/email-link", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(malformed.status).toBe(400);
  });

  it("limits link requests per email address and per client address (429 with Retry-After)", async () => {
    const headers = from();
    for (let i = 0; i < 3; i++) {
      const ok = await api(t.app, "POST", "/api/auth/email-link", {
        body: { email: "limit@example.com" },
        headers: from(),
      });
      expect(ok.status).toBe(200);
    }
    const limited = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "limit@example.com" },
      headers: from(),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);

    for (let i = 0; i < 10; i++) {
      const ok = await api(t.app, "POST", "/api/auth/email-link", {
        body: { email: `ip${i}@example.com` },
        headers,
      });
      expect(ok.status).toBe(200);
    }
    const byAddress = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "ip10@example.com" },
      headers,
    });
    expect(byAddress.status).toBe(429);
    expect(byAddress.headers.get("retry-after")).toBeTruthy();
  });

  it("answers anonymous callers of /api/auth/user with 401 Unauthorized", async () => {
    const response = await t.app.request("/api/auth/user");
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("Unauthorized");
  });

  it("ends the session in the database on logout", async () => {
    const cookie = await signIn(t, "leaving@example.com");
    const [user] = await t.db.select().from(users).where(eq(users.email, "leaving@example.com"));
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user?.id ?? "")),
    ).toHaveLength(1);
    expect((await t.app.request("/api/auth/user", { headers: { Cookie: cookie } })).status).toBe(
      200,
    );
    const response = await t.app.request("/api/logout", { headers: { Cookie: cookie } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user?.id ?? "")),
    ).toEqual([]);
    expect((await t.app.request("/api/auth/user", { headers: { Cookie: cookie } })).status).toBe(
      401,
    );
  });

  it("ends a session at its expiry, though this instance knew it a moment before", async () => {
    const cookie = await signIn(t, "expiring@example.com");
    const asked = () => t.app.request("/api/auth/user", { headers: { Cookie: cookie } });
    expect((await asked()).status).toBe(200);
    const [session] = await t.db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.email, "expiring@example.com"));
    vi.useFakeTimers({ toFake: ["Date"], now: (session?.expiresAt.getTime() ?? 0) + 1000 });
    try {
      expect((await asked()).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends /api/login to the sign-in page with the page the reader came from", async () => {
    const response = await t.app.request("/api/login", {
      headers: { Referer: "http://localhost:3000/poetry/the-kitchen-table#s-2" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `/login?returnTo=${encodeURIComponent("/poetry/the-kitchen-table#s-2")}`,
    );
    const foreign = await t.app.request("/api/login", {
      headers: { Referer: "https://evil.example/x" },
    });
    expect(foreign.headers.get("location")).toBe("/login?returnTo=%2F");
  });

  it("gates /api/admin/*: 401 anonymous, 403 USER, through for ADMIN", async () => {
    expect((await t.app.request("/api/admin/whispers")).status).toBe(401);
    const reader = await signIn(t, "plain@example.com");
    const forbidden = await t.app.request("/api/admin/whispers", { headers: { Cookie: reader } });
    expect(forbidden.status).toBe(403);
    const admin = await signIn(t, "boss@example.com", { admin: true });
    const allowed = await t.app.request("/api/admin/whispers", { headers: { Cookie: admin } });
    expect([200, 404]).toContain(allowed.status);
  });

  it("makes ADMIN_EMAILS admins when they sign in", async () => {
    const cookie = await signIn(t, "Poet@Example.com");
    const me = await t.app.request("/api/auth/user", { headers: { Cookie: cookie } });
    expect(await me.json()).toMatchObject({ email: "poet@example.com", role: "ADMIN" });
  });

  it("signs in once with the CLI login link, on a plain GET", async () => {
    const link = new URL(
      await t.services.accounts.createLoginLink("cli@example.com", { admin: true }),
    );
    expect(link.origin).toBe("http://localhost:3000");
    expect(link.pathname).toBe("/api/auth/cli-login");
    const first = await t.app.request(link.pathname + link.search);
    expect(first.status).toBe(302);
    const me = await t.app.request("/api/auth/user", { headers: { Cookie: cookiesFrom(first) } });
    expect(await me.json()).toMatchObject({ email: "cli@example.com", role: "ADMIN" });
    const second = await t.app.request(link.pathname + link.search);
    expect(second.headers.get("location")).toMatch(/^\/login\?error=invalid-link/);
  });

  it("ends a user's sessions when their role changes", async () => {
    const cookie = await signIn(t, "demoted@example.com", { admin: true });
    // Known to this instance first (the session is kept in memory): the change holds all the same.
    expect((await t.app.request("/api/auth/user", { headers: { Cookie: cookie } })).status).toBe(
      200,
    );
    expect(await t.services.accounts.setRole("demoted@example.com", "USER")).toBe(true);
    expect((await t.app.request("/api/auth/user", { headers: { Cookie: cookie } })).status).toBe(
      401,
    );
    expect(await t.services.accounts.setRole("ghost@example.com", "ADMIN")).toBe(false);
  });

  it("refuses cookie-authenticated mutations from another site", async () => {
    const cookie = await signIn(t, "csrf@example.com");
    const foreign = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "csrf@example.com" },
      headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const crossSite = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "csrf@example.com" },
      headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const own = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "csrf@example.com" },
      headers: { Cookie: cookie, Origin: "http://localhost:3000", ...from() },
    });
    expect(own.status).toBe(200);
  });
});

describe("session cookies under https", () => {
  it("are Secure when PUBLIC_URL is https", async () => {
    const t = await createTestApp("pglite", { env: { PUBLIC_URL: "https://poems.example" } });
    try {
      const link = new URL(
        await t.services.accounts.createLoginLink("secure@example.com", { admin: false }),
      );
      const response = await t.app.request(link.pathname + link.search);
      const cookie = response.headers
        .getSetCookie()
        .find((value) => value.includes("session_token="));
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/HttpOnly/i);
    } finally {
      await t.close();
    }
  });
});
