import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../common/endpoints.ts";
import {
  digestDeliveries,
  embers,
  guestSubmissions,
  mailRuns,
  sessions,
  subscriptions,
} from "../../server/db/schema.ts";
import { api, SITE_ORIGIN, wireAnswer } from "../helpers/api.ts";
import { drivers } from "../helpers/database.ts";
import { createPoem } from "../helpers/factories.ts";
import { signIn } from "../helpers/session.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Services read "now" from the clock they are given (ServiceDeps.now), never the machine's: what
 * they stamp and what they count as this week follows the clock when a test moves it.
 */
describe.each(drivers)("the services' clock on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let admin: string;
  /** Far from the machine's time, so a stamp taken from the machine's clock shows. */
  let clock = new Date("2026-03-02T10:00:00.000Z");

  const asAdmin = (method: string, path: string, body: unknown = {}) =>
    api(t.app, method, path, { body, cookie: admin, origin: SITE_ORIGIN });

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp(driver, {
      env: { SMTP_URL: smtp.url },
      now: () => clock,
      digestSenderOptions: { retryBaseMs: 0 },
    });
    admin = await signIn(t, "poet@example.com", { admin: true });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("starts the ember schedule at its today, and stamps a newly featured ember, a reviewed submission and a confirmed or ended subscription with it", async () => {
    clock = new Date("2026-03-02T10:00:00.000Z");
    const featured = await asAdmin("POST", "/api/admin/embers", {
      text: "A coal kept overnight.",
      date: "2026-03-02",
      isFeatured: true,
    });
    expect(featured.status).toBe(201);
    const [ember] = await t.db.select().from(embers);
    expect(ember?.featuredAt).toEqual(clock);
    // The admin's schedule starts at the clock's today.
    const schedule = await wireAnswer(
      endpoints.listEmberSchedule,
      await api(t.app, "GET", "/api/admin/embers", { cookie: admin, origin: SITE_ORIGIN }),
    );
    expect(schedule.map((row) => row.text)).toEqual(["A coal kept overnight."]);

    clock = new Date("2026-03-03T11:00:00.000Z");
    const [submission] = await t.db
      .insert(guestSubmissions)
      .values({ name: "Ines", email: "ines@example.com", poemTitle: "Salt", poemText: "Salt." })
      .returning();
    if (!submission) throw new Error("no submission");
    const reviewed = await asAdmin("POST", `/api/admin/submissions/${submission.id}/review`);
    expect(reviewed.status).toBeLessThan(300);
    const [stored] = await t.db
      .select()
      .from(guestSubmissions)
      .where(eq(guestSubmissions.id, submission.id));
    expect(stored?.reviewedAt).toEqual(clock);

    clock = new Date("2026-03-04T12:00:00.000Z");
    const since = smtp.messages.length;
    await api(t.app, "POST", "/api/subscribe", { body: { email: "reader@example.com" } });
    const text = (await smtp.waitFor("reader@example.com", since)).parsed.text ?? "";
    const verify = new URL(/https?:\/\/\S+\/api\/subscribe\/verify\?\S+/.exec(text)?.[0] ?? "");
    const unsubscribe = new URL(/https?:\/\/\S+\/unsubscribe\?\S+/.exec(text)?.[0] ?? "");
    await t.app.request(verify.pathname + verify.search);
    const [verified] = await t.db.select().from(subscriptions);
    expect(verified?.verifiedAt).toEqual(clock);

    clock = new Date("2026-03-05T13:00:00.000Z");
    const ended = await t.services.subscriptions.unsubscribe(
      Number(unsubscribe.searchParams.get("s")),
      unsubscribe.searchParams.get("sig") ?? "",
    );
    expect(ended).toBe(true);
    const [unsubscribed] = await t.db.select().from(subscriptions);
    expect(unsubscribed?.unsubscribedAt).toEqual(clock);
    await t.db.delete(subscriptions);
  });

  it("draws the digest's new poems from the clock's week and stamps its sending with it", async () => {
    clock = new Date("2026-03-10T09:00:00.000Z");
    // New in the clock's week, and long before the machine's.
    await createPoem(t.db, {
      slug: "march-thaw",
      title: "March Thaw",
      stanzas: ["the ice lets go"],
      publishAt: new Date(clock.getTime() - 2 * DAY_MS),
    });
    // Published a month before the clock: not this week's.
    await createPoem(t.db, {
      slug: "february",
      title: "February",
      stanzas: ["still frozen"],
      publishAt: new Date(clock.getTime() - 30 * DAY_MS),
    });
    const content = await wireAnswer(
      endpoints.getDigestContent,
      await api(t.app, "GET", "/api/admin/digest/content", { cookie: admin, origin: SITE_ORIGIN }),
    );
    expect(content.newPoems.map((poem) => poem.slug)).toEqual(["march-thaw"]);

    await t.db.insert(subscriptions).values({ email: "kept@example.com", verified: true });
    clock = new Date("2026-03-11T08:30:00.000Z");
    expect((await asAdmin("POST", "/api/admin/digest/send", { subject: "March" })).status).toBe(
      201,
    );
    await t.services.digestSender.drain();
    const [delivery] = await t.db.select().from(digestDeliveries);
    expect(delivery?.status).toBe("sent");
    expect(delivery?.sentAt).toEqual(clock);
    const [run] = await t.db.select().from(mailRuns);
    expect(run?.completedAt).toEqual(clock);
  });

  it("lets upkeep remove what has expired by the clock", async () => {
    clock = new Date();
    const [session] = await t.db.select().from(sessions);
    if (!session) throw new Error("no session");
    expect((await t.services.databaseUpkeep.run()).expiredRows).toBe(0);
    clock = new Date(session.expiresAt.getTime() + 1000);
    expect((await t.services.databaseUpkeep.run()).expiredRows).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(sessions).where(eq(sessions.id, session.id))).toEqual([]);
  });
});
