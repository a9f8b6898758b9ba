import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod/mini";
import type { digestRun } from "../../common/schemas/digest.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/client.ts";
import { digestDeliveries, subscriptions } from "../../server/db/schema.ts";
import { createSubscribers } from "../helpers/factories.ts";
import { createFreshPostgres } from "../helpers/fresh-postgres.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";

/** A run as the API sends it: the JSON these tests check. */
type DigestRunJson = z.input<typeof digestRun>;

/**
 * The digest as an operator runs it: real server processes, a real SMTP server, and a process
 * killed with SIGKILL in the middle of a run. Every verified subscriber gets exactly one copy.
 */

const SUBSCRIBERS = 1_000;
const address = (n: number) => `reader${n}@example.com`;
/** Every 40th address is unsubscribed before the run; every 97th is refused by the mail server. */
const isUnsubscribed = (n: number) => n % 40 === 0;
const isRefused = (email: string) => Number(/\d+/.exec(email)?.[0]) % 97 === 0;

async function seedSubscribers(handle: DatabaseHandle) {
  const all = Array.from({ length: SUBSCRIBERS }, (_, n) => n);
  await createSubscribers(handle.db, all.filter((n) => !isUnsubscribed(n)).map(address));
  await createSubscribers(handle.db, all.filter(isUnsubscribed).map(address), {
    unsubscribed: true,
    unsubscribedAt: new Date(),
  });
}

async function signInAdmin(server: RunningServer) {
  const { stdout } = await server.cli("login-link", "poet@example.com", "--admin");
  const response = await fetch(stdout.trim(), { redirect: "manual" });
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

function adminApi(server: RunningServer, cookie: string) {
  return (pathname: string, body?: unknown) =>
    fetch(`${server.url}${pathname}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Cookie: cookie, Origin: server.url, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

async function waitForRunToFinish(
  api: ReturnType<typeof adminApi>,
  timeoutMs = 120_000,
): Promise<DigestRunJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [run] = await (await api("/api/admin/digest/runs")).json();
    if (run?.status === "sent") return run;
    if (run?.status === "paused") throw new Error(`run paused: ${run.pausedReason}`);
    if (Date.now() > deadline) throw new Error(`run still ${run?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Subscriber addresses to how many copies of the digest each received. */
function copiesByAddress(smtp: SmtpCapture) {
  const copies = new Map<string, number>();
  for (const mail of smtp.messages) {
    for (const to of mail.to) copies.set(to, (copies.get(to) ?? 0) + 1);
  }
  return copies;
}

/** Messages one instance has in flight at once (its three sending workers). */
const IN_FLIGHT_PER_INSTANCE = 3;

/**
 * The promise, address by address: never a second copy, for anyone; none for the unsubscribed,
 * the refused, or those who left mid-run; and one copy for every other verified subscriber —
 * except a message the killed process had marked sent in the instant before it would have
 * written the final "." (decision 006): such a copy is lost, never doubled, so at most one per
 * message the killed instance had in flight.
 */
function expectOneCopyEach(smtp: SmtpCapture, leftMidRun: Set<string>) {
  const copies = copiesByAddress(smtp);
  const extra: string[] = [];
  const missing: string[] = [];
  for (let n = 0; n < SUBSCRIBERS; n++) {
    const email = address(n);
    const expected = isUnsubscribed(n) || isRefused(email) || leftMidRun.has(email) ? 0 : 1;
    const received = copies.get(email) ?? 0;
    if (received > expected) extra.push(`${email}: ${received}`);
    if (received < expected) missing.push(email);
  }
  expect(extra).toEqual([]);
  expect(missing.length, `lost at the kill: ${missing.join(", ")}`).toBeLessThanOrEqual(
    IN_FLIGHT_PER_INSTANCE,
  );
  return copies;
}

function expectBalancedRun(run: DigestRunJson, leftMidRun: number) {
  const queued = SUBSCRIBERS - SUBSCRIBERS / 40;
  const refused = Array.from({ length: SUBSCRIBERS }, (_, n) => n).filter(
    (n) => !isUnsubscribed(n) && isRefused(address(n)),
  ).length;
  expect(run.recipientCount).toBe(queued);
  expect(run.failedCount).toBe(refused);
  expect(run.skippedCount).toBe(leftMidRun);
  expect(run.sentCount).toBe(queued - refused - leftMidRun);
  expect(run.sentCount + run.failedCount + run.skippedCount).toBe(run.recipientCount);
  expect(run.pendingCount).toBe(0);
}

/**
 * Marks some not-yet-sent addresses unsubscribed, as readers clicking the link mid-run would.
 * `behindFront` passes over that many queued deliveries first: while an instance is still sending
 * (the survivor on PostgreSQL), one near the front could be committed as sent between this read
 * and the update, which is a reader leaving just after their copy went, not a copy sent to someone
 * who had left.
 */
async function unsubscribeSomePending(handle: DatabaseHandle, count: number, behindFront = 0) {
  const pending = await handle.db
    .select({ id: digestDeliveries.subscriptionId, email: subscriptions.email })
    .from(digestDeliveries)
    .innerJoin(subscriptions, eq(subscriptions.id, digestDeliveries.subscriptionId))
    .where(inArray(digestDeliveries.status, ["pending", "sending"]))
    .orderBy(digestDeliveries.id)
    .offset(behindFront)
    .limit(count * 3);
  const leaving = pending.filter((row) => !isRefused(row.email)).slice(-count);
  await handle.db
    .update(subscriptions)
    .set({ unsubscribed: true, unsubscribedAt: new Date() })
    .where(
      inArray(
        subscriptions.id,
        leaving.map((row) => row.id),
      ),
    );
  return new Set(leaving.map((row) => row.email));
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("sending the digest through a crash", () => {
  // Seeding, then two server processes in turn on the embedded database: minutes on a busy machine.
  it("on the embedded database: SIGKILL mid-run, restart, every subscriber gets one copy", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-digest-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const seed = await openDatabase({ kind: "pglite", dataDir });
    await seed.migrate();
    await seedSubscribers(seed);
    await seed.close();

    const smtp = await startSmtpCapture({
      refuse: (to) => (isRefused(to) ? 550 : undefined),
      delayMs: 5,
    });
    cleanups.push(() => smtp.close());
    const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, DEMO_CONTENT: "false" };
    const first = await startServer(env);
    const cookie = await signInAdmin(first);
    const sent = await adminApi(first, cookie)("/api/admin/digest/send", { subject: "Embers" });
    expect(sent.status).toBe(201);

    await smtp.waitForCount(300);
    first.process.kill("SIGKILL");
    await new Promise((resolve) => first.process.once("exit", resolve));
    const atKill = smtp.messages.length;
    expect(atKill).toBeLessThan(SUBSCRIBERS - 100);

    // While it is down, a few readers who had not been mailed yet unsubscribe.
    const between = await openDatabase({ kind: "pglite", dataDir });
    const leftMidRun = await unsubscribeSomePending(between, 10);
    await between.close();

    const second = await startServer(env);
    cleanups.push(() => second.stop());
    const run = await waitForRunToFinish(adminApi(second, cookie));
    expectOneCopyEach(smtp, leftMidRun);
    expectBalancedRun(run, leftMidRun.size);
    expect(smtp.messages.length).toBeGreaterThan(atKill);
  }, 180_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "on PostgreSQL: two instances send one run at once, one is killed, no copy is sent twice",
    async () => {
      const fresh = await createFreshPostgres("ev_digest");
      cleanups.push(() => fresh.drop());

      const smtp = await startSmtpCapture({
        refuse: (to) => (isRefused(to) ? 550 : undefined),
        delayMs: 20,
      });
      cleanups.push(() => smtp.close());
      const env = {
        DATABASE_URL: fresh.url,
        SMTP_URL: smtp.url,
        DEMO_CONTENT: "false",
        DIGEST_LEASE_SECONDS: "5",
        SESSION_SECRET: randomBytes(32).toString("hex"),
      };
      const [one, two] = await Promise.all([startServer(env), startServer(env)]);
      cleanups.push(() => two.stop());
      const database = await openDatabase({ kind: "postgres", url: fresh.url });
      cleanups.push(() => database.close());
      await seedSubscribers(database);

      const cookie = await signInAdmin(one);
      const sent = await adminApi(one, cookie)("/api/admin/digest/send", { subject: "Embers" });
      expect(sent.status).toBe(201);

      await smtp.waitForCount(300);
      one.process.kill("SIGKILL");
      await new Promise((resolve) => one.process.once("exit", resolve));
      // Behind both instances' claimed batches (the sender claims 30 deliveries at a time).
      const leftMidRun = await unsubscribeSomePending(database, 10, 100);

      // The survivor finishes the run, taking over the killed instance's claims after their lease.
      const run = await waitForRunToFinish(adminApi(two, cookie));
      expectOneCopyEach(smtp, leftMidRun);
      expectBalancedRun(run, leftMidRun.size);
      const survivorLines = two.logs.filter((line) => line.includes("digest batch sent"));
      expect(survivorLines.length).toBeGreaterThan(0);
    },
    // Two server processes, seeding and a lease to wait out: as long as the embedded case above.
    180_000,
  );
});
