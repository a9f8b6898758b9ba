import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../helpers/cluster.ts";
import type { RunningServer } from "../helpers/server.ts";

/**
 * Counting across instances (docs/decisions/049-counting-without-tracking.md): each instance adds
 * its counts to the same daily rows, so the numbers are the sums; a reader who reaches both
 * instances on one day is one visitor, through the shared salt and the day's hashes; counts reach
 * the database within a batch interval without any stop, and a graceful stop writes the rest.
 */

const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const POEM = "road-to-the-far-chapel";
const SITE = "http://ember-verse.test";

let cluster: Cluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

const visit = (server: RunningServer, reader: string) =>
  fetch(`${server.url}/poetry/${POEM}`, {
    headers: { "user-agent": BROWSER, "x-forwarded-for": reader, "sec-fetch-dest": "document" },
  }).then(async (response) => {
    await response.arrayBuffer();
    expect(response.status).toBe(200);
  });

const beacon = (server: RunningServer, reader: string, reached: number[]) =>
  fetch(`${server.url}/api/insights/reading`, {
    method: "POST",
    headers: {
      "user-agent": BROWSER,
      "x-forwarded-for": reader,
      origin: SITE,
      "content-type": "text/plain;charset=UTF-8",
    },
    body: JSON.stringify({ poem: POEM, reached }),
  });

describe.skipIf(!process.env.TEST_DATABASE_URL)("counting on two instances", () => {
  it("sums both instances' counts, and one reader on both is one visitor", async () => {
    // Instances of one site share its address, which each visitor's hash includes.
    cluster = await startCluster(2, { TRUST_PROXY: "1", PUBLIC_URL: SITE });
    const [one, two] = cluster.servers;
    if (!one || !two) throw new Error("two instances expected");
    const database = new pg.Client({ connectionString: cluster.postgres.databaseUrl });
    await database.connect();
    const total = async (metric: string, subject: string, part = "") => {
      const { rows } = await database.query<{ n: string | null }>(
        "select sum(count) as n from daily_counts where metric = $1 and subject = $2 and part = $3",
        [metric, subject, part],
      );
      return Number(rows[0]?.n ?? 0);
    };
    try {
      await visit(one, "198.51.100.1");
      await visit(one, "198.51.100.1");
      await visit(two, "198.51.100.1");
      await visit(two, "198.51.100.2");
      expect((await beacon(one, "198.51.100.1", [0, 1, 2])).status).toBe(204);
      expect((await beacon(two, "198.51.100.2", [0, 1])).status).toBe(204);

      // Within one batch interval (10 s) the counts are in the database, with no stop at all.
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && (await total("views", "")) < 4) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(await total("views", "")).toBe(4);
      expect(await total("views", `/poetry/${POEM}`)).toBe(4);
      expect(await total("visitors", "")).toBe(2);
      expect(await total("visitors", `/poetry/${POEM}`)).toBe(2);

      // Counts made just before a graceful stop are written by the stop itself.
      await visit(two, "198.51.100.3");
      expect(await two.stop("SIGTERM")).toBe(0);
      expect(await total("views", "")).toBe(5);
      expect(await total("visitors", "")).toBe(3);
      while (Date.now() < deadline + 15_000 && (await total("readings", POEM)) < 2) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(await total("readings", POEM)).toBe(2);
      expect(await total("reached", POEM, "0")).toBe(2);
      expect(await total("reached", POEM, "1")).toBe(2);
      expect(await total("reached", POEM, "2")).toBe(1);
      // One salt for the day, shared by both instances.
      const salts = await database.query("select day from visit_salts");
      expect(salts.rows).toHaveLength(1);
    } finally {
      await database.end();
    }
  }, 120_000);
});
