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
};

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
  const small = await startServer(env);
  const before = await measureAll(small);
  await small.stop();

  const started = performance.now();
  const seeded = await runCli(
    ["seed-load", "--poems", size.poems, "--whispers", size.whispers, "--echoes", size.echoes],
    { ...process.env, ...env },
  );
  if (seeded.code !== 0) throw new Error(seeded.stderr);
  const seedSeconds = Math.round((performance.now() - started) / 100) / 10;

  const large = await startServer(env);
  const after = await measureAll(large);
  await large.stop();

  process.stdout.write(
    `\n${seeded.stdout.trim()} in ${seedSeconds} s; ${CONNECTIONS} connections, ${SECONDS} s each, page cache off\n`,
  );
  process.stdout.write(
    `${"read".padEnd(24)} ${"small p50".padStart(10)} ${"large p50".padStart(10)} ${"small p99".padStart(10)} ${"large p99".padStart(10)} ${"p50 ×".padStart(7)}\n`,
  );
  const rows = TARGETS.map(([name]) => {
    const a = before[name] ?? { p50: 0, p99: 0, rps: 0 };
    const b = after[name] ?? { p50: 0, p99: 0, rps: 0 };
    const ratio = Math.round((b.p50 / Math.max(a.p50, 1)) * 100) / 100;
    process.stdout.write(
      `${name.padEnd(24)} ${String(a.p50).padStart(10)} ${String(b.p50).padStart(10)} ${String(a.p99).padStart(10)} ${String(b.p99).padStart(10)} ${String(ratio).padStart(7)}\n`,
    );
    return { name, small: a, large: b, p50Ratio: ratio };
  });
  const targets = rows.map((row) => atMost(`${row.name}: large p50 ≤ 2 × small`, row.p50Ratio, 2));
  printTargets(targets);
  fs.mkdirSync("bench-results", { recursive: true });
  fs.writeFileSync(
    "bench-results/scale.json",
    `${JSON.stringify({ at: new Date().toISOString(), size, seedSeconds, rows, targets }, null, 2)}\n`,
  );
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
