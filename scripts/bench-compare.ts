import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { signInWithLink } from "../tests/helpers/operator.ts";
import { type RunningServer, startServer } from "../tests/helpers/server.ts";
import { atLeast, atMost, printTargets, type TargetCheck } from "./targets.ts";

/**
 * `BENCH_BASE=<commit> npm run bench`: this checkout against another commit, side by side on one
 * machine (docs/product/performance.md, "Against a commit"). The base is checked out in a
 * temporary git worktree and built there; both builds run at once, on their own embedded
 * databases with the demo content. Once both have answered every row for a few seconds, each row
 * is measured against one, then the other, in turn (A B, B A, A B …), so a slow minute of a
 * shared machine falls on both. Prints each row's requests/s, p50 and p99 for both, the ratio
 * new ÷ base, and the targets: the cached pages keep ≥ 0.95 × the base's requests/s, and no row's
 * p99 is more than 1.5 × its base's, whatever its mean. Writes the report with the machine's load
 * to docs/performance/.
 */

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Rounds of each row on each build. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = 1;
/**
 * Before the first round, each build answers every row for this long: a server just started is
 * still compiling its hot paths, and its first round measured a third of its later ones.
 */
const SERVER_WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 5);
const POEM = "the-kitchen-table";
const root = path.resolve(import.meta.dirname, "..");

/** A reader's browser opening a page, as counting counts it (docs/decisions/049). */
const READER_HEADERS = {
  "User-Agent":
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  Accept: "text/html",
  "Sec-Fetch-Dest": "document",
};

interface Measured {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

interface Side {
  name: "new" | "base";
  commit: string;
  server: RunningServer;
  readerCookie: string;
}

/** A row: what autocannon asks of one build. */
interface RowSpec {
  name: string;
  /** Whether the row is a cached page, held to ≥ 0.95 × its base's requests/s. */
  isCachedPage: boolean;
  options(side: Side): autocannon.Options;
}

const ROWS: RowSpec[] = [
  {
    name: "poem page, anonymous (cached)",
    isCachedPage: true,
    options: (side) => ({ url: `${side.server.url}/poetry/${POEM}`, headers: READER_HEADERS }),
  },
  {
    name: "poem page, signed in (cached)",
    isCachedPage: true,
    options: (side) => ({
      url: `${side.server.url}/poetry/${POEM}`,
      headers: { ...READER_HEADERS, Cookie: side.readerCookie },
    }),
  },
  {
    // Search declares nothing the page cache may keep: every request is rendered.
    name: "search page (a cache miss)",
    isCachedPage: false,
    options: (side) => ({ url: `${side.server.url}/search?q=river`, headers: READER_HEADERS }),
  },
  {
    name: "echo toggle POST",
    isCachedPage: false,
    options: (side) => {
      let connections = 0;
      return {
        url: `${side.server.url}/api/poems/${POEM}/echo`,
        method: "POST",
        setupClient(client) {
          // One reader, a stanza a connection: no two connections toggle the same echo.
          const stanzaIndex = connections++ % 3;
          client.setHeadersAndBody(
            {
              Cookie: side.readerCookie,
              Origin: side.server.url,
              "Content-Type": "application/json",
            },
            JSON.stringify({ stanzaIndex }),
          );
        },
      };
    },
  },
  {
    name: "reading beacon POST",
    isCachedPage: false,
    options: (side) => ({
      url: `${side.server.url}/api/insights/reading`,
      method: "POST",
      headers: {
        ...READER_HEADERS,
        Origin: side.server.url,
        "Content-Type": "text/plain;charset=UTF-8",
      },
      body: JSON.stringify({ poem: POEM, reached: [0, 1] }),
    }),
  },
];

async function measure(options: autocannon.Options): Promise<Measured> {
  await autocannon({ connections: CONNECTIONS, ...options, duration: WARM_UP_SECONDS });
  const result = await autocannon({ connections: CONNECTIONS, ...options, duration: SECONDS });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

const git = (...args: string[]) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd}`);
}

/**
 * The base's dependencies: this checkout's node_modules when the lock files match (a link), else
 * an install of its own, kept between runs under the lock's hash so the next run starts at once.
 */
function provideModules(checkout: string) {
  const lock = fs.readFileSync(path.join(checkout, "package-lock.json"));
  const ours = fs.readFileSync(path.join(root, "package-lock.json"));
  const target = path.join(checkout, "node_modules");
  if (lock.equals(ours)) {
    fs.symlinkSync(path.join(root, "node_modules"), target, "dir");
    return;
  }
  const hash = createHash("sha256").update(lock).digest("hex").slice(0, 16);
  const kept = path.join(os.tmpdir(), "ember-verse-bench-modules", hash);
  if (!fs.existsSync(path.join(kept, "node_modules"))) {
    process.stdout.write(`bench: installing the base's dependencies into ${kept} (once)\n`);
    fs.mkdirSync(kept, { recursive: true });
    for (const file of ["package.json", "package-lock.json"]) {
      fs.copyFileSync(path.join(checkout, file), path.join(kept, file));
    }
    // The servers run on this process's Node, so the Node package's own download is not needed.
    run("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], kept);
  }
  fs.symlinkSync(path.join(kept, "node_modules"), target, "dir");
}

/** Builds the app in `checkout` with its own React Router, on this process's Node. */
function buildIn(checkout: string) {
  const cli = fs.realpathSync(path.join(checkout, "node_modules/.bin/react-router"));
  run(process.execPath, [cli, "build"], checkout);
}

async function signInReader(server: RunningServer): Promise<string> {
  const link = await server.cli("login-link", "bench-reader@example.com");
  return signInWithLink(link.stdout.trim());
}

/**
 * Pins `pid` and every thread it has to `cpus` (taskset's list syntax). On a machine of two cores
 * the server measured has one core and the load generator the other, as the measurements this
 * bench replaced did with wrk: otherwise autocannon and the server share cores and each row
 * measures their contention. Threads made later inherit the pin. Returns whether it was pinned.
 */
function pin(pid: number, cpus: string): boolean {
  if (os.cpus().length < 2) return false;
  const result = spawnSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
  return result.status === 0;
}

function uptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(", ")}`;
  }
}

interface Compared {
  spec: RowSpec;
  runs: Record<Side["name"], Measured[]>;
}

function summarize(runs: Measured[]) {
  return {
    requestsPerSecond: Math.round(mean(runs.map((run) => run.requestsPerSecond))),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
  };
}

function report(compared: Compared[], sides: Side[], loads: string[], isPinned: boolean): string {
  const [ours, base] = sides;
  const lines = [
    `# Bench: ${ours?.commit} against ${base?.commit}`,
    "",
    `\`BENCH_BASE=${base?.commit} BENCH_SECONDS=${SECONDS} BENCH_ROUNDS=${ROUNDS} npm run bench\`, ` +
      `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per build and row, ` +
      `${os.cpus().length} cores, embedded database, counting on; ` +
      (isPinned
        ? "each server pinned to CPU 0 and the load generator to the others (taskset)."
        : "nothing pinned (taskset missing or a single core)."),
    "",
    `Load before: \`${loads[0]}\``,
    "",
    `Load after: \`${loads[1]}\``,
    "",
    "| row | new req/s | base req/s | new ÷ base | new p50 / p99 ms | base p50 / p99 ms | non-2xx, errors, timeouts new / base | each round, new · base req/s |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const { spec, runs } of compared) {
    const now = summarize(runs.new);
    const then = summarize(runs.base);
    const rounds = runs.new
      .map((run, round) => `${run.requestsPerSecond} · ${runs.base[round]?.requestsPerSecond}`)
      .join(", ");
    lines.push(
      `| ${spec.name} | ${now.requestsPerSecond} | ${then.requestsPerSecond} | ${ratio(now.requestsPerSecond, then.requestsPerSecond)} | ${now.p50Ms} / ${now.p99Ms} | ${then.p50Ms} / ${then.p99Ms} | ${now.non2xx} / ${then.non2xx} | ${rounds} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const ratio = (now: number, then: number) => Math.round((now / Math.max(then, 1)) * 1000) / 1000;

function targetsOf(compared: Compared[]): TargetCheck[] {
  const targets: TargetCheck[] = [];
  for (const { spec, runs } of compared) {
    const now = summarize(runs.new);
    const then = summarize(runs.base);
    // A row the base does not answer (a route it did not have yet) has nothing to compare.
    if (then.requestsPerSecond === 0 || then.non2xx >= then.requestsPerSecond) continue;
    // A p99 of no answers at all is no tail: a row the new build stopped answering fails.
    targets.push(atLeast(`${spec.name} answered (req/s)`, now.requestsPerSecond, 1));
    if (spec.isCachedPage) {
      targets.push(
        atLeast(
          `${spec.name} ≥ 0.95 × base req/s`,
          ratio(now.requestsPerSecond, then.requestsPerSecond),
          0.95,
        ),
      );
    }
    targets.push(
      atMost(
        `${spec.name} p99 ≤ 1.5 × base p99 (${then.p99Ms} ms)`,
        ratio(now.p99Ms, then.p99Ms),
        1.5,
      ),
    );
  }
  return targets;
}

/** The comparison; resolves once both servers are stopped and the worktree is gone. */
export async function compareWithBase(baseRef: string): Promise<void> {
  const baseCommit = git("rev-parse", "--short", `${baseRef}^{commit}`);
  const ourCommit = git("rev-parse", "--short", "HEAD");
  const isDirty = git("status", "--porcelain", "--untracked-files=no") !== "";
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), `ev-bench-${baseCommit}-`));
  const loads = [uptime()];
  let servers: RunningServer[] = [];
  git("worktree", "add", "--detach", checkout, baseCommit);
  try {
    provideModules(checkout);
    process.stdout.write(`bench: building ${baseCommit} in ${checkout}\n`);
    buildIn(checkout);
    process.stdout.write("bench: building this checkout\n");
    buildIn(root);
    const env = { LOG_LEVEL: "warn", RATE_LIMIT_SCALE: "1000000" };
    // Two servers starting at once on a shared machine, one migrating from nothing: minutes.
    const startsWithinMs = 300_000;
    servers = await Promise.all([
      startServer(env, { startsWithinMs }),
      startServer(env, { checkout, startsWithinMs }),
    ]);
    const [ourServer, baseServer] = servers as [RunningServer, RunningServer];
    const lastCpu = os.cpus().length - 1;
    const isPinned = [ourServer, baseServer].every(
      (server) => server.process.pid !== undefined && pin(server.process.pid, "0"),
    )
      ? pin(process.pid, `1-${lastCpu}`)
      : false;
    const sides: Side[] = [
      {
        name: "new",
        commit: `${ourCommit}${isDirty ? " (with changes)" : ""}`,
        server: ourServer,
        readerCookie: await signInReader(ourServer),
      },
      {
        name: "base",
        commit: baseCommit,
        server: baseServer,
        readerCookie: await signInReader(baseServer),
      },
    ];
    for (const side of sides) {
      for (const spec of ROWS) {
        await autocannon({
          connections: CONNECTIONS,
          ...spec.options(side),
          duration: SERVER_WARM_UP_SECONDS,
        });
      }
    }
    const compared: Compared[] = [];
    for (const spec of ROWS) {
      const runs: Compared["runs"] = { new: [], base: [] };
      for (let round = 0; round < ROUNDS; round++) {
        // Each build goes first in every other round, so neither always follows the other's load.
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          const measured = await measure(spec.options(side));
          runs[side.name].push(measured);
          process.stdout.write(
            `${spec.name.padEnd(32)} ${side.name.padEnd(4)} round ${round + 1}: ${measured.requestsPerSecond} req/s, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms\n`,
          );
        }
      }
      compared.push({ spec, runs });
    }
    loads.push(uptime());
    const text = report(compared, sides, loads, isPinned);
    process.stdout.write(`\n${text}`);
    const targets = targetsOf(compared);
    printTargets(targets);
    const outDir = path.join(root, "docs/performance");
    fs.mkdirSync(outDir, { recursive: true });
    const day = new Date().toISOString().slice(0, 10);
    const file = path.join(outDir, `bench-${day}-${ourCommit}-vs-${baseCommit}.md`);
    const verdicts = targets
      .map((check) => `- ${check.isMet ? "met" : "MISSED"} ${check.target}: ${check.measured}`)
      .join("\n");
    fs.writeFileSync(file, `${text}\n## Targets\n\n${verdicts}\n`);
    process.stdout.write(`\nbench: written to ${path.relative(root, file)}\n`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    // The link to the dependencies goes first, so nothing removes what it points at.
    fs.rmSync(path.join(checkout, "node_modules"), { force: true });
    git("worktree", "remove", "--force", checkout);
    fs.rmSync(checkout, { recursive: true, force: true });
  }
}
