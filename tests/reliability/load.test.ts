import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client.ts";
import { type Cluster, startCluster } from "../helpers/cluster.ts";
import { signInReaders } from "../helpers/operator.ts";
import { fetchPoems, runWorkload, summarize, verifyLedger } from "../helpers/workload.ts";

/**
 * Reliability (README.md, What failures look like), load with nothing lost: two instances on one
 * PostgreSQL database under a mixed workload; afterwards the database holds exactly the writes that
 * were acknowledged.
 */

const SECONDS = Number(process.env.RELIABILITY_SECONDS ?? 60);
const CONNECTIONS = 100;
const READERS = 40;

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two instances under load", () => {
  it(`${CONNECTIONS} connections for ${SECONDS} s: no 5xx, every acknowledged write stored once`, async () => {
    cluster = await startCluster(2, { RATE_LIMIT_SCALE: "1000000" });
    const [one, two] = cluster.servers;
    if (!one || !two) throw new Error("two instances expected");
    const emails = Array.from({ length: READERS }, (_, n) => `load-reader${n}@example.com`);
    const readers = await signInReaders(one, emails, cluster.postgres);
    const poems = await fetchPoems(one.url);

    const result = await runWorkload({
      targets: () => [one.url, two.url],
      readers,
      poems,
      connections: CONNECTIONS,
      durationMs: SECONDS * 1000,
    });
    const summary = summarize(result.records, result.durationMs);
    console.info("load on two instances", JSON.stringify(summary));

    expect(summary.serverErrors).toBe(0);
    expect(summary.unanswered).toBe(0);
    expect(summary.acknowledgedWrites).toBe(summary.writes);
    // Every kind of write was made, so the check below has something to find.
    const { ledger } = result;
    for (const written of [ledger.whispers, ledger.subscriptions, ledger.echoes, ledger.journal]) {
      expect(written.size).toBeGreaterThan(0);
    }
    for (const server of [one, two]) {
      expect(
        result.records.filter((record) => record.target === server.url).length,
      ).toBeGreaterThan(0);
    }
    const database = await openDatabase({ kind: "postgres", url: cluster.postgres.databaseUrl });
    try {
      expect(await verifyLedger(database, result)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
