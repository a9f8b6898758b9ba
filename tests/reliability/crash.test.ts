import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db/client.ts";
import { lockFilePath } from "../../server/db/data-dir-lock.ts";
import { type Cluster, startCluster } from "../helpers/cluster.ts";
import { signInReaders } from "../helpers/operator.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import {
  fetchPoems,
  runWorkload,
  summarize,
  verifyLedger,
  type WorkloadResult,
} from "../helpers/workload.ts";

/**
 * Reliability (README.md, What failures look like), crash: an instance killed with SIGKILL in the
 * middle of the workload and started again loses no acknowledged write, and (on PostgreSQL) the
 * other instance never falters.
 */

/**
 * Long enough for a kill a fifth of the way in, a restart (a cold start under the other
 * instance's load takes 8 s or more on two cores), and load on the restarted instance.
 */
const CRASH_LOAD_MS = 20_000;
const KILL_AFTER_MS = 4_000;
/** The embedded database serves one instance: fewer connections keep the run comparable. */
const EMBEDDED_CONNECTIONS = 20;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function kill(server: RunningServer) {
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGKILL");
  await exited;
}

async function expectExactlyAcknowledged(database: DatabaseHandle, result: WorkloadResult) {
  try {
    expect(await verifyLedger(database, result)).toEqual([]);
  } finally {
    await database.close();
  }
}

describe("an instance killed under load", () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "on PostgreSQL: the survivor serves on, the restarted instance rejoins, nothing acknowledged is lost",
    async () => {
      const cluster: Cluster = await startCluster(2, { RATE_LIMIT_SCALE: "1000000" });
      cleanups.push(() => cluster.stop());
      const [victim, survivor] = cluster.servers;
      if (!victim || !survivor) throw new Error("two instances expected");
      const emails = Array.from({ length: 40 }, (_, n) => `crash-reader${n}@example.com`);
      const readers = await signInReaders(victim, emails, cluster.postgres);
      const poems = await fetchPoems(survivor.url);

      let restarted: RunningServer | undefined;
      let killedAt = 0;
      const crash = (async () => {
        await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
        killedAt = Date.now();
        await kill(victim);
        restarted = await startServer(cluster.env);
        cluster.servers.push(restarted);
      })();
      const result = await runWorkload({
        targets: () => [restarted?.url ?? victim.url, survivor.url],
        readers,
        poems,
        connections: 100,
        durationMs: CRASH_LOAD_MS,
      });
      await crash;
      console.info(
        "crash on PostgreSQL",
        JSON.stringify(summarize(result.records, result.durationMs)),
      );

      const fromSurvivor = result.records.filter((record) => record.target === survivor.url);
      expect(fromSurvivor.filter((record) => record.status === 0 || record.status >= 500)).toEqual(
        [],
      );
      const afterKill = fromSurvivor.filter((record) => record.startedAt > killedAt);
      expect(afterKill.length).toBeGreaterThan(0);
      // Only requests the kill cut short went unanswered; the restarted instance answered too.
      expect(result.records.filter((record) => record.status >= 500)).toEqual([]);
      expect(
        result.records.filter((record) => record.target === restarted?.url && record.status === 200)
          .length,
      ).toBeGreaterThan(0);
      await expectExactlyAcknowledged(
        await openDatabase({ kind: "postgres", url: cluster.postgres.databaseUrl }),
        result,
      );
    },
  );

  it("on the embedded database: the restart on the same DATA_DIR takes over the lock and has every acknowledged write", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-crash-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, RATE_LIMIT_SCALE: "1000000" };
    const first = await startServer(env);
    cleanups.push(() => first.stop("SIGKILL"));
    const emails = Array.from({ length: 10 }, (_, n) => `embedded-reader${n}@example.com`);
    const readers = await signInReaders(first, emails);
    const poems = await fetchPoems(first.url);

    let second: RunningServer | undefined;
    const crash = (async () => {
      await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
      await kill(first);
      expect(fs.readFileSync(lockFilePath(dataDir), "utf8")).toBe(String(first.process.pid));
      second = await startServer(env);
      cleanups.push(() => second?.stop("SIGKILL") ?? Promise.resolve());
    })();
    const result = await runWorkload({
      targets: () => [second?.url ?? first.url],
      readers,
      poems,
      connections: EMBEDDED_CONNECTIONS,
      durationMs: CRASH_LOAD_MS,
    });
    await crash;
    console.info(
      "crash on the embedded database",
      JSON.stringify(summarize(result.records, result.durationMs)),
    );
    if (!second) throw new Error("the instance was not restarted");

    expect(result.records.filter((record) => record.status >= 500)).toEqual([]);
    const restartedUrl = second.url;
    expect(
      result.records.filter((r) => r.target === restartedUrl && r.status === 200).length,
    ).toBeGreaterThan(0);
    expect(fs.readFileSync(lockFilePath(dataDir), "utf8")).toBe(String(second.process.pid));
    // Only one process may open the directory: stop the server (exit 0) before reading it here.
    expect(await second.stop("SIGTERM")).toBe(0);
    await expectExactlyAcknowledged(await openDatabase({ kind: "pglite", dataDir }), result);
  });
});
