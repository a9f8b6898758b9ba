import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client.ts";
import { signInReaders } from "../helpers/operator.ts";
import { startServer } from "../helpers/server.ts";
import { fetchPoems, runWorkload, summarize, verifyLedger } from "../helpers/workload.ts";

/**
 * Reliability (README.md, What failures look like), shutdown: SIGTERM in the middle of the
 * workload. The instance stops accepting connections, answers every request it had already
 * received, and exits 0.
 */

const LOAD_MS = 6_000;
const SIGTERM_AFTER_MS = 3_000;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("SIGTERM under load", () => {
  it("finishes in-flight requests, refuses new connections, exits 0, keeps every acknowledged write", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-shutdown-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const server = await startServer({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: "1000000" });
    cleanups.push(() => server.stop("SIGKILL"));
    const emails = Array.from({ length: 10 }, (_, n) => `shutdown-reader${n}@example.com`);
    const readers = await signInReaders(server, emails);
    const poems = await fetchPoems(server.url);

    let signalledAt = 0;
    const exitCode = (async () => {
      await new Promise((resolve) => setTimeout(resolve, SIGTERM_AFTER_MS));
      signalledAt = Date.now();
      return server.stop("SIGTERM");
    })();
    const result = await runWorkload({
      targets: () => [server.url],
      readers,
      poems,
      connections: 20,
      durationMs: LOAD_MS,
    });
    expect(await exitCode).toBe(0);
    const summary = summarize(result.records, result.durationMs);
    console.info("SIGTERM under load", JSON.stringify(summary));

    const before = result.records.filter((record) => record.startedAt < signalledAt);
    const cutShort = before.filter((record) => record.status === 0 || record.status >= 500);
    expect(cutShort).toEqual([]);
    // Some requests were still being served when the signal came.
    expect(before.some((record) => record.startedAt + record.ms > signalledAt)).toBe(true);
    // Later requests were answered on connections still open, or refused: never reset.
    const after = result.records.filter((record) => record.startedAt >= signalledAt);
    const failures = new Set(after.filter((r) => r.status === 0).map((r) => r.error));
    const lastAnswer = Math.max(
      ...after.filter((r) => r.status !== 0).map((r) => r.startedAt + r.ms),
    );
    console.info(
      "after SIGTERM: failures",
      [...failures],
      "last answer after",
      lastAnswer - signalledAt,
      "ms",
    );
    expect([...failures]).toEqual(["ECONNREFUSED"]);
    expect(after.filter((record) => record.status >= 500)).toEqual([]);

    await using database = await openDatabase({ kind: "pglite", dataDir }).then((handle) => ({
      handle,
      [Symbol.asyncDispose]: () => handle.close(),
    }));
    expect(await verifyLedger(database.handle, result)).toEqual([]);
  });
});
