import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, SITE_ORIGIN } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { cookiesFrom } from "../helpers/session.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const READER = "reader.secret@example.com";
const SUBSCRIBER = "subscriber.secret@example.com";
const ADMIN = "admin.secret@example.com";

/** The token of the newest sign-in link in the outbox (no SMTP_URL: mail goes there). */
async function latestSignInToken(t: TestApp): Promise<string> {
  const outbox = path.join(t.dataDir, "outbox");
  const newest = fs.readdirSync(outbox).sort().at(-1);
  if (!newest) throw new Error("no mail in the outbox");
  const mail = await simpleParser(fs.readFileSync(path.join(outbox, newest)));
  const link = /https?:\/\/\S+\/login\/verify\?\S+/.exec(mail.text ?? "")?.[0];
  const token = link && new URL(link).searchParams.get("token");
  if (!token) throw new Error("no sign-in link in the mail");
  return token;
}

/** The values of the cookies a response sets: what must never reach a log. */
const cookieValues = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => decodeURIComponent(cookie.split(";")[0]?.split("=").slice(1).join("=") ?? ""))
    .filter((value) => value.length > 0);

/**
 * SECURITY.md, promise 8: a representative flow leaves no secret in the log; errors leak nothing.
 */
describe.each(drivers)("secrets in logs on %s", (driver) => {
  let t: TestApp;
  const log: string[] = [];
  /** Everything the flow handled that must not appear in the log. */
  const secrets = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp(driver, { logDestination: { write: (line) => log.push(line) } });
    await createPoem(t.db, { slug: "river", stanzas: ["one / two"] });
  });
  afterAll(() => t.close());

  it("logs no token, cookie value or full email through sign-in, subscribe, whisper and admin calls", async () => {
    // Sign-in by emailed link, then the Continue button.
    expect(
      (
        await api(t.app, "POST", "/api/auth/email-link", {
          body: { email: READER },
          origin: SITE_ORIGIN,
        })
      ).status,
    ).toBe(200);
    const signInToken = await latestSignInToken(t);
    secrets.add(signInToken);
    const continued = await api(t.app, "POST", "/api/auth/email-link/verify", {
      body: { token: signInToken },
      origin: SITE_ORIGIN,
    });
    for (const value of cookieValues(continued)) secrets.add(value);
    const reader = cookiesFrom(continued);
    expect(reader).toContain("ev.session_token");
    expect((await t.app.request("/api/auth/user", { headers: { Cookie: reader } })).status).toBe(
      200,
    );

    // Subscribe (development mail answers with the link) and verify.
    const subscribed = await api(t.app, "POST", "/api/subscribe", {
      body: { email: SUBSCRIBER },
      origin: SITE_ORIGIN,
    });
    const { verificationUrl } = (await subscribed.json()) as { verificationUrl: string };
    const verifyLink = new URL(verificationUrl);
    secrets.add(verifyLink.searchParams.get("token") ?? "missing verification token");
    expect((await t.app.request(verifyLink.pathname + verifyLink.search)).status).toBe(302);

    // A whisper written and deleted.
    const whisper = await api(t.app, "POST", "/api/poems/river/whispers", {
      body: { stanzaIndex: 0, body: "a quiet thought" },
      cookie: reader,
      origin: SITE_ORIGIN,
    });
    const { id } = (await whisper.json()) as { id: number };
    const deleted = await t.app.request(`/api/whispers/${id}`, {
      method: "DELETE",
      headers: { Cookie: reader, Origin: "http://localhost:3000" },
    });
    expect(deleted.status).toBe(204);

    // The operator's login link for an admin, then admin calls.
    const cliLink = new URL(await t.services.accounts.createLoginLink(ADMIN, { admin: true }));
    secrets.add(cliLink.searchParams.get("token") ?? "missing cli token");
    const adminSignIn = await t.app.request(cliLink.pathname + cliLink.search);
    for (const value of cookieValues(adminSignIn)) secrets.add(value);
    const admin = cookiesFrom(adminSignIn);
    const csv = await t.app.request("/api/admin/subscribers.csv", { headers: { Cookie: admin } });
    expect(await csv.text()).toContain(SUBSCRIBER);
    expect(
      (await t.app.request("/api/admin/digest/content", { headers: { Cookie: admin } })).status,
    ).toBe(200);

    // A used link again, and sign-out.
    await t.app.request(cliLink.pathname + cliLink.search);
    expect((await t.app.request("/api/logout", { headers: { Cookie: reader } })).status).toBe(302);

    const text = log.join("");
    expect(log.length, "the flow was logged").toBeGreaterThan(10);
    for (const secret of secrets) expect(text).not.toContain(secret);
    for (const email of [READER, SUBSCRIBER, ADMIN]) expect(text).not.toContain(email);
  });

  it("answers an unexpected failure with a bare 500 and logs the query without its values", async () => {
    const failingQuery = () =>
      t.db.execute(sql`select id from users where email = ${READER} and id = ${"7"}::int`);
    const original = t.services.poems.listPoems;
    t.services.poems.listPoems = async () => {
      await failingQuery();
      return [];
    };
    try {
      const response = await t.app.request("/api/poems");
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({
        message: "Internal Server Error",
        requestId: expect.any(String),
      });
      expect(body).not.toMatch(/select|users|at \S+ \(|\.ts:\d+/i);
    } finally {
      t.services.poems.listPoems = original;
    }
    const logged = log.join("");
    expect(logged).toContain("unhandled error");
    expect(logged).toContain("select id from users");
    expect(logged).not.toContain(READER);
  });
});
