import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createFreshPostgres } from "../helpers/fresh-postgres.ts";
import { openOperator, signInReaders } from "../helpers/operator.ts";
import { startServer } from "../helpers/server.ts";
import { startTcpProxy } from "../helpers/tcp-proxy.ts";

/**
 * Reliability (README.md, What failures look like), database outage: the network between an
 * instance and PostgreSQL is cut for about ten seconds under light load. Every request is answered
 * quickly with 503 (a friendly page for pages), /api/health says the database is down, and the
 * instance recovers by itself.
 */

const OUTAGE_MS = 10_000;
/**
 * The longest any request may take while the database is away: the pool's connection timeout
 * (5 s, server/db/client.ts) and some room for a loaded machine. Statements never start.
 */
const ANSWER_BOUND_MS = 8_000;
/**
 * How soon after the database is back every kind of request is answered again
 * (README.md, What failures look like): a pool connection is made on demand, so the first request
 * after the return connects; the rest is room for a loaded machine.
 */
const RECOVERY_BOUND_MS = 5_000;

interface Probe {
  name: string;
  status: number;
  ms: number;
  body: string;
  startedAt: number;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL out of reach", () => {
  it("answers 503 without hanging, reports it on /api/health, and recovers by itself", async () => {
    const database = await createFreshPostgres("ev_outage");
    cleanups.push(() => database.drop());
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    cleanups.push(() => proxy.close());
    const throughProxy = new URL(database.url);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    const sessionSecret = randomBytes(32).toString("hex");
    // Pages uncached, so each one reads the database like a signed-in reader's would.
    const server = await startServer({
      DATABASE_URL: throughProxy.toString(),
      SESSION_SECRET: sessionSecret,
      DEMO_CONTENT: "false",
      PAGE_CACHE: "false",
      // The echo probe toggles five times a second; its limit (60 a minute) is not under test.
      RATE_LIMIT_SCALE: "1000",
    });
    cleanups.push(() => server.stop("SIGKILL"));
    const postgres = { databaseUrl: database.url, sessionSecret };
    const operator = await openOperator(server, postgres);
    await operator.run("seed-demo").finally(() => operator.close());
    const [reader] = await signInReaders(server, ["outage-reader@example.com"], postgres);
    if (!reader) throw new Error("no reader");
    const slug = "the-kitchen-table";

    const requests: Record<string, () => Promise<Response>> = {
      api: () => fetch(`${server.url}/api/poems/${slug}`),
      page: () => fetch(`${server.url}/poetry/${slug}`),
      "signed-in page": () =>
        fetch(`${server.url}/poetry/${slug}`, { headers: { cookie: reader.cookie } }),
      echo: () =>
        fetch(`${server.url}/api/poems/${slug}/echo`, {
          method: "POST",
          headers: {
            cookie: reader.cookie,
            origin: server.url,
            "content-type": "application/json",
          },
          body: JSON.stringify({ stanzaIndex: 0 }),
        }),
      health: () => fetch(`${server.url}/api/health`),
    };
    const probes: Probe[] = [];
    let isProbing = true;
    const probeLoop = async (name: string, request: () => Promise<Response>) => {
      while (isProbing) {
        const startedAt = Date.now();
        let status = 0;
        let body = "";
        try {
          const response = await request();
          status = response.status;
          body = await response.text();
        } catch (error) {
          body = String(error);
        }
        probes.push({ name, status, ms: Date.now() - startedAt, body, startedAt });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const loops = Object.entries(requests).map(([name, request]) => probeLoop(name, request));

    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cutAt = Date.now();
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const restoredAt = Date.now();
    await proxy.restore();
    // Recovery: the first request of each kind started after the database came back that is
    // answered 200, and how long after the return it was answered.
    const answeredAfterReturn = (name: string) => {
      const ok = probes.find(
        (probe) => probe.name === name && probe.startedAt >= restoredAt && probe.status === 200,
      );
      return ok ? ok.startedAt + ok.ms - restoredAt : null;
    };
    const kinds = Object.keys(requests);
    while (Date.now() - restoredAt < 30_000 && !kinds.every((name) => answeredAfterReturn(name))) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const recovery = Object.fromEntries(kinds.map((name) => [name, answeredAfterReturn(name)]));
    const afterReturn = Object.fromEntries(
      kinds.map((name) => [
        name,
        probes
          .filter((probe) => probe.name === name && probe.startedAt >= restoredAt)
          .map((probe) => `${probe.status}:${probe.startedAt - restoredAt}`),
      ]),
    );
    isProbing = false;
    await Promise.all(loops);

    const during = probes.filter(
      (probe) => probe.startedAt > cutAt + 500 && probe.startedAt + probe.ms < restoredAt,
    );
    const table = Object.keys(requests).map((name) => {
      const mine = during.filter((probe) => probe.name === name);
      return {
        name,
        statuses: [...new Set(mine.map((p) => p.status))],
        count: mine.length,
        maxMs: Math.max(...mine.map((p) => p.ms)),
      };
    });
    console.info(
      "during the outage",
      JSON.stringify(table),
      "answered 200 after the return (ms)",
      JSON.stringify(recovery),
      "after the return (status:ms)",
      JSON.stringify(afterReturn),
    );
    // What the operator sees in the log: each distinct message (pino level, text), how often.
    const messages = new Map<string, number>();
    for (const line of server.logs) {
      if (!line.startsWith("{")) continue;
      const { msg, level } = JSON.parse(line) as { msg?: string; level?: number };
      const key = `${level} ${msg}`;
      if (msg !== "request") messages.set(key, (messages.get(key) ?? 0) + 1);
    }
    console.info("log messages", JSON.stringify(Object.fromEntries(messages)));

    for (const name of kinds) {
      expect(recovery[name], `${name} answered 200 after the return`).not.toBeNull();
      expect(recovery[name], name).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    }
    for (const probe of probes)
      expect(probe.ms, `${probe.name} took ${probe.ms} ms`).toBeLessThan(ANSWER_BOUND_MS);
    for (const name of Object.keys(requests)) {
      const mine = during.filter((probe) => probe.name === name);
      expect(mine.length, name).toBeGreaterThan(0);
      expect(
        mine.map((probe) => probe.status),
        name,
      ).toEqual(mine.map(() => 503));
    }
    for (const probe of during.filter((p) => p.name.endsWith("page"))) {
      expect(probe.body).toContain("We&#x27;ll be right back");
    }
    for (const probe of during.filter((p) => p.name === "health")) {
      expect(JSON.parse(probe.body)).toMatchObject({ status: "unavailable", database: "down" });
    }
  });
});
