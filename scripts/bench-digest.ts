import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { openDatabase } from "../server/db/client.ts";
import { createSubscribers } from "../tests/helpers/factories.ts";
import { startServer } from "../tests/helpers/server.ts";

/**
 * `npm run bench:digest`: how long the production server takes to send one digest run to
 * BENCH_DELIVERIES (10,000) verified subscribers, through a local SMTP sink that accepts and
 * discards every message. The run is queued through the admin API and timed until the runs list
 * reports it sent. Writes bench-results/digest.json.
 */
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-bench-digest-"));
const seed = await openDatabase({ kind: "pglite", dataDir });
await seed.migrate();
const emails = Array.from({ length: DELIVERIES }, (_, n) => `reader${n}@example.com`);
for (let start = 0; start < emails.length; start += 1_000) {
  await createSubscribers(seed.db, emails.slice(start, start + 1_000));
}
await seed.close();

let accepted = 0;
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, _session, callback) {
    stream.on("end", () => {
      accepted += 1;
      callback();
    });
    stream.resume();
  },
});
// A connection the server drops on shutdown is no failure of the benchmark.
sink.on("error", () => {});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
const sinkAddress = sink.server.address();
const sinkPort = typeof sinkAddress === "object" && sinkAddress ? sinkAddress.port : 0;

const app = await startServer({
  DATA_DIR: dataDir,
  SMTP_URL: `smtp://127.0.0.1:${sinkPort}`,
  DEMO_CONTENT: "false",
  LOG_LEVEL: "warn",
});
try {
  const { stdout } = await app.cli("login-link", "bench@example.com", "--admin");
  const signedIn = await fetch(stdout.trim(), { redirect: "manual" });
  const cookie = signedIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const api = (pathname: string, body?: unknown) =>
    fetch(`${app.url}${pathname}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Cookie: cookie, Origin: app.url, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const started = performance.now();
  const queued = await api("/api/admin/digest/send", { subject: "Benchmark digest" });
  if (queued.status !== 201) throw new Error(`send answered ${queued.status}`);
  const queuedMs = performance.now() - started;
  let run: { status: string; sentCount: number; failedCount: number };
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    [run] = await (await api("/api/admin/digest/runs")).json();
  } while (run.status === "sending");
  const totalMs = performance.now() - started;

  const result = {
    deliveries: DELIVERIES,
    sent: run.sentCount,
    failed: run.failedCount,
    acceptedBySink: accepted,
    queueMs: Math.round(queuedMs),
    totalSeconds: Number((totalMs / 1000).toFixed(1)),
    deliveriesPerSecond: Math.round((run.sentCount / totalMs) * 1000),
  };
  process.stdout.write(
    `digest: ${result.sent} of ${DELIVERIES} sent in ${result.totalSeconds} s ` +
      `(${result.deliveriesPerSecond}/s; queued in ${result.queueMs} ms; ` +
      `${result.failed} failed; sink accepted ${accepted})\n`,
  );
  fs.mkdirSync("bench-results", { recursive: true });
  fs.writeFileSync("bench-results/digest.json", `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await app.stop();
  sink.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
