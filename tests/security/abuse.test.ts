import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS, type RateLimitRule } from "../../server/core/rate-limit.ts";
import { startActivityPubPeer } from "../helpers/activitypub-peer.ts";
import { api } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem, createSubscribers } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

type HeaderMap = Record<string, string>;
/** One request against a limit; app.request answers synchronously or not. */
type Attempt = (attempt: number) => Response | Promise<Response>;

const GUEST_SUBMISSION = {
  name: "Guest",
  email: "guest@example.com",
  poemTitle: "A title",
  poemText: "A poem",
};

let addressSequence = 0;
/** A client address no other attempt in this file has used, as a proxy would report it. */
const freshAddress = () => `198.51.100.${++addressSequence}`;
const fromAddress = (address: string): HeaderMap => ({ "X-Forwarded-For": address });

/**
 * How to spend one attempt against each limit: `prepare` picks the one subject (address, email,
 * reader) every attempt shares, and varies everything the other limits of the route count.
 */
interface LimitProbe {
  prepare(t: TestApp): Promise<Attempt>;
  /** What an attempt within the limit answers, when that is a refusal of its own (default: below 400). */
  answerWithinLimit?: number;
}

/** One probe per rule of RATE_LIMITS; the type makes a new rule without a probe a compile error. */
const LIMIT_PROBES: Record<keyof typeof RATE_LIMITS, LimitProbe> = {
  signInLinkPerIp: {
    async prepare(t) {
      const headers = fromAddress(freshAddress());
      return (attempt) =>
        api(t.app, "POST", "/api/auth/email-link", {
          body: { email: `by-ip-${attempt}@example.com` },
          headers,
        });
    },
  },
  signInLinkPerEmail: {
    async prepare(t) {
      return () =>
        api(t.app, "POST", "/api/auth/email-link", {
          body: { email: "by-email@example.com" },
          headers: fromAddress(freshAddress()),
        });
    },
  },
  echoPerUser: {
    async prepare(t) {
      const cookie = await signIn(t, "echoer@example.com");
      return () =>
        api(t.app, "POST", "/api/poems/river/echo", {
          body: { stanzaIndex: 0 },
          headers: { Cookie: cookie },
        });
    },
  },
  whisperPerUser: {
    async prepare(t) {
      const cookie = await signIn(t, "whisperer@example.com");
      return (attempt) =>
        api(t.app, "POST", "/api/poems/river/whispers", {
          body: { stanzaIndex: 0, body: `thought ${attempt}` },
          headers: { Cookie: cookie },
        });
    },
  },
  subscribePerIp: {
    async prepare(t) {
      const headers = fromAddress(freshAddress());
      return (attempt) =>
        api(t.app, "POST", "/api/subscribe", {
          body: { email: `sub-ip-${attempt}@example.com` },
          headers,
        });
    },
  },
  subscribePerEmail: {
    async prepare(t) {
      return () =>
        api(t.app, "POST", "/api/subscribe", {
          body: { email: "sub-email@example.com" },
          headers: fromAddress(freshAddress()),
        });
    },
  },
  guestSubmissionPerIp: {
    async prepare(t) {
      const headers = fromAddress(freshAddress());
      return () => api(t.app, "POST", "/api/guest-submission", { body: GUEST_SUBMISSION, headers });
    },
  },
  avatarUploadPerUser: {
    async prepare(t) {
      const cookie = await signIn(t, "avatar@example.com");
      return () =>
        api(t.app, "POST", "/api/account/avatar/upload-url", {
          body: {},
          headers: { Cookie: cookie },
        });
    },
  },
  imageUrlCheckPerUser: {
    answerWithinLimit: 400,
    async prepare(t) {
      const cookie = await signIn(t, "checker@example.com", { admin: true });
      // Refused before any request leaves the server (not http), but counted all the same.
      return () =>
        api(t.app, "POST", "/api/admin/images/validate-url", {
          body: { url: "ftp://example.com/cover.png" },
          headers: { Cookie: cookie },
        });
    },
  },
  fediverseInboxPerServer: {
    // Only activities the server's key verified count against it: a real peer signs each one.
    answerWithinLimit: 202,
    async prepare(t) {
      const peer = await startActivityPubPeer();
      closeAfterAll.push(() => peer.close());
      const inbox = "http://localhost:3000/fediverse/inbox";
      return () => {
        const { headers, body } = peer.signedPost(inbox, {
          id: peer.newId("alice"),
          type: "Like",
          actor: peer.actorUrl("alice"),
          object: "http://localhost:3000/poetry/river",
        });
        return t.app.request(inbox, { method: "POST", headers, body });
      };
    },
  },
  fediverseInboxUnverifiedPerIp: {
    // Unsigned: refused as such within the budget, and counted against the address.
    answerWithinLimit: 401,
    async prepare(t) {
      const address = freshAddress();
      return () =>
        t.app.request("http://localhost:3000/fediverse/inbox", {
          method: "POST",
          headers: { "Content-Type": "application/activity+json", ...fromAddress(address) },
          body: "{}",
        });
    },
  },
};

/** Peers the probes started, stopped with the app. */
const closeAfterAll: (() => Promise<void>)[] = [];

/** Spends `count` attempts; the statuses, in order. */
async function spend(attempt: Attempt, count: number) {
  const statuses: number[] = [];
  for (let n = 0; n < count; n++) statuses.push((await attempt(n)).status);
  return statuses;
}

/** SECURITY.md, promise 6: rate limits, X-Forwarded-For and answers that do not tell who exists. */
describe.each(drivers)("abuse on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    // A real SMTP server: without one, development mail answers with a link (verificationUrl).
    smtp = await startSmtpCapture();
    // The inbox's probe verifies a test peer's signatures, fetching its key on this machine.
    t = await createTestApp(driver, {
      env: { SMTP_URL: smtp.url, TRUST_PROXY: "1", FEDIVERSE_ALLOW_PRIVATE_ADDRESSES: "true" },
    });
    await createPoem(t.db, { slug: "river", stanzas: ["one / two"] });
  });
  afterAll(async () => {
    for (const close of closeAfterAll.splice(0)) await close();
    await t.close();
    await smtp.close();
  });

  it("has a probe for every rate limit", () => {
    expect(Object.keys(LIMIT_PROBES).sort()).toEqual(Object.keys(RATE_LIMITS).sort());
  });

  it.each(Object.entries(RATE_LIMITS) as Array<[keyof typeof RATE_LIMITS, RateLimitRule]>)(
    "%s answers 429 with Retry-After past its limit",
    async (key, rule) => {
      const probe = LIMIT_PROBES[key];
      const attempt = await probe.prepare(t);
      const statuses = await spend(attempt, rule.limit);
      const unexpected = statuses.filter((status) =>
        probe.answerWithinLimit === undefined ? status >= 400 : status !== probe.answerWithinLimit,
      );
      expect(unexpected).toEqual([]);
      const limited = await attempt(rule.limit);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(rule.windowSeconds);
      expect(await limited.json()).toEqual({ message: expect.any(String) });
    },
  );

  it("honours X-Forwarded-For under TRUST_PROXY, counting the address the proxy saw", async () => {
    const { limit } = RATE_LIMITS.guestSubmissionPerIp;
    // Each attempt from a different client: none is limited.
    const fromMany = await spend(
      () =>
        api(t.app, "POST", "/api/guest-submission", {
          body: GUEST_SUBMISSION,
          headers: fromAddress(freshAddress()),
        }),
      limit + 1,
    );
    expect(fromMany.filter((status) => status === 429)).toEqual([]);
    // One client forging a different left-hand hop each time: the proxy's hop decides.
    const client = freshAddress();
    const forged = await spend(
      (n) =>
        api(t.app, "POST", "/api/guest-submission", {
          body: GUEST_SUBMISSION,
          headers: { "X-Forwarded-For": `10.0.0.${n}, ${client}` },
        }),
      limit + 1,
    );
    expect(forged.at(-1)).toBe(429);
  });

  it("ignores X-Forwarded-For without TRUST_PROXY", async () => {
    const direct = await createTestApp(driver, { env: { SMTP_URL: smtp.url } });
    try {
      const { limit } = RATE_LIMITS.guestSubmissionPerIp;
      const statuses = await spend(
        () =>
          api(direct.app, "POST", "/api/guest-submission", {
            body: GUEST_SUBMISSION,
            headers: fromAddress(freshAddress()),
          }),
        limit + 1,
      );
      expect(statuses.slice(0, limit).every((status) => status === 201)).toBe(true);
      expect(statuses[limit]).toBe(429);
    } finally {
      await direct.close();
    }
  });

  /** Status, content type and body: everything a caller could tell two answers apart by. */
  async function answerOf(response: Response) {
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      body: await response.text(),
    };
  }

  it("answers subscribe identically for new, pending and verified addresses", async () => {
    await createSubscribers(t.db, ["verified@example.com"]);
    await createSubscribers(t.db, ["pending@example.com"], { verified: false, verifiedAt: null });
    const answers = [];
    for (const email of ["new@example.com", "pending@example.com", "verified@example.com"]) {
      answers.push(
        await answerOf(
          await api(t.app, "POST", "/api/subscribe", {
            body: { email },
            headers: fromAddress(freshAddress()),
          }),
        ),
      );
    }
    expect(answers[0]?.status).toBe(200);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("answers a sign-in link request identically for known and unknown addresses", async () => {
    await signIn(t, "known@example.com");
    const known = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "known@example.com" },
      headers: fromAddress(freshAddress()),
    });
    const unknown = await api(t.app, "POST", "/api/auth/email-link", {
      body: { email: "nobody-here@example.com" },
      headers: fromAddress(freshAddress()),
    });
    const knownAnswer = await answerOf(known);
    expect(knownAnswer.status).toBe(200);
    expect(await answerOf(unknown)).toEqual(knownAnswer);
  });
});
