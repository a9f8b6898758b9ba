import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { signInWithLink } from "../tests/helpers/operator.ts";
import { type RunningServer, runCli, startServer } from "../tests/helpers/server.ts";
import { atMost, printTargets } from "./targets.ts";

/**
 * `npm run bench:scale`: the reads a viral stanza hits, first on the demo content, then on the
 * same database after `seed-load` (10,000 poems, 100,000 whispers, 1,000,000 echoes by default;
 * BENCH_POEMS, BENCH_WHISPERS, BENCH_ECHOES), with the page cache off so every request reaches
 * the database. Prints p50/p99 at both sizes, the ratio and its target (within 2×) as met or
 * missed; writes bench-results/scale.json.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const POEM = "the-kitchen-table";
/** Echo counts as a signed-in reader: anonymous readers share one reading a second (decision 009). */
const TARGETS = [
  ["poem page", `/poetry/${POEM}`, false],
  ["a stanza's whispers", `/api/poems/${POEM}/whispers/0`, false],
  ["echo counts", `/api/poems/${POEM}/echos`, true],
  ["/poetry (first page)", "/poetry", false],
] as const;
const size = {
  poems: process.env.BENCH_POEMS ?? "10000",
  whispers: process.env.BENCH_WHISPERS ?? "100000",
  echoes: process.env.BENCH_ECHOES ?? "1000000",
  insightDays: process.env.BENCH_INSIGHT_DAYS ?? "365",
};
/**
 * The admin's insight queries (docs/decisions/049-counting-without-tracking.md), on the large
 * database with a year of daily counts: one connection, so each figure is one query's time.
 */
const INSIGHT_READS = [
  ["insights, 90 days", "/api/admin/insights?days=90"],
  ["insights, 30 days", "/api/admin/insights?days=30"],
  ["a poem's insights, 90 days", `/api/admin/insights/poems/${POEM}?days=90`],
] as const;
const INSIGHT_LIMIT_MS = 100;

async function measureInsights(server: RunningServer) {
  const link = await server.cli("login-link", "bench-poet@example.com", "--admin");
  const cookie = await signInWithLink(link.stdout.trim());
  const rows: Array<{ name: string; p50: number; p99: number; rps: number }> = [];
  for (const [name, route] of INSIGHT_READS) {
    // A second's warm-up first, as `npm run bench` does: a first query's planning is not counted.
    await autocannon({
      url: `${server.url}${route}`,
      connections: 1,
      duration: 1,
      headers: { Cookie: cookie },
    });
    const result = await autocannon({
      url: `${server.url}${route}`,
      connections: 1,
      duration: SECONDS,
      headers: { Cookie: cookie },
    });
    if (result.non2xx + result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx`);
    rows.push({
      name,
      p50: result.latency.p50,
      p99: result.latency.p99,
      rps: Math.round(result.requests.average),
    });
  }
  return rows;
}

/** BENCH_ONLY=insights: only the seeding and the insight queries, on this shared machine. */
const insightsOnly = process.env.BENCH_ONLY === "insights";

async function measureAll(server: RunningServer) {
  const link = await server.cli("login-link", "bench-reader@example.com");
  const cookie = await signInWithLink(link.stdout.trim());
  const results: Record<string, { p50: number; p99: number; rps: number }> = {};
  for (const [name, route, isSignedIn] of TARGETS) {
    const result = await autocannon({
      url: `${server.url}${route}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: isSignedIn ? { Cookie: cookie } : {},
    });
    if (result.non2xx + result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx`);
    results[name] = {
      p50: result.latency.p50,
      p99: result.latency.p99,
      rps: Math.round(result.requests.average),
    };
  }
  return results;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-bench-scale-"));
const env = { DATA_DIR: dataDir, PAGE_CACHE: "false", LOG_LEVEL: "warn" };
try {
  // The first start seeds the demo content, whose poem the reads ask for.
  const small = await startServer(env);
  const before = insightsOnly ? {} : await measureAll(small);
  await small.stop();

  const started = performance.now();
  const seeded = await runCli(
    [
      "seed-load",
      ...["--poems", size.poems, "--whispers", size.whispers, "--echoes", size.echoes],
      ...["--insight-days", size.insightDays],
    ],
    { ...process.env, ...env },
  );
  if (seeded.code !== 0) throw new Error(seeded.stderr);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;

  const large = await startServer(env);
  const after = insightsOnly ? {} : await measureAll(large);
  const insights = await measureInsights(large);
  await large.stop();

  process.stdout.write(
    `\n${seeded.stdout.trim()} in ${seedSeconds} s; ${CONNECTIONS} connections, ${SECONDS} s each, page cache off\n`,
  );
  process.stdout.write(
    `${"read".padEnd(24)} ${"small p50".padStart(10)} ${"large p50".padStart(10)} ${"small p99".padStart(10)} ${"large p99".padStart(10)} ${"p50 ×".padStart(7)}\n`,
  );
  const rows = (insightsOnly ? [] : TARGETS).map(([name]) => {
    const a = before[name] ?? { p50: 0, p99: 0, rps: 0 };
    const b = after[name] ?? { p50: 0, p99: 0, rps: 0 };
    const ratio = Math.round((b.p50 / Math.max(a.p50, 1)) * 100) / 100;
    process.stdout.write(
      `${name.padEnd(24)} ${String(a.p50).padStart(10)} ${String(b.p50).padStart(10)} ${String(a.p99).padStart(10)} ${String(b.p99).padStart(10)} ${String(ratio).padStart(7)}\n`,
    );
    return { name, small: a, large: b, p50Ratio: ratio };
  });
  process.stdout.write(
    `\n${"insight query".padEnd(28)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}\n`,
  );
  for (const row of insights) {
    process.stdout.write(
      `${row.name.padEnd(28)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)}\n`,
    );
  }
  const targets = [
    ...rows.map((row) => atMost(`${row.name}: large p50 ≤ 2 × small`, row.p50Ratio, 2)),
    ...insights.map((row) =>
      atMost(`${row.name}: p99 < ${INSIGHT_LIMIT_MS} ms`, row.p99, INSIGHT_LIMIT_MS - 1),
    ),
  ];
  printTargets(targets);
  fs.mkdirSync("bench-results", { recursive: true });
  fs.writeFileSync(
    "bench-results/scale.json",
    `${JSON.stringify({ at: new Date().toISOString(), size, seedSeconds, rows, insights, targets }, null, 2)}\n`,
  );
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
