import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { migratedPgliteDirectory } from "./pglite-template.ts";

const root = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  logs: string[];
  /** Runs `npm run cli -- ...args` against this server's data directory. */
  cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the production server (`node server/main.ts`, the built app) on a free port with its
 * own data directory, and resolves once it listens. `checkout`: another checkout of the site to
 * run instead of this one (the bench's base commit); its database starts empty and migrates,
 * which on a busy machine takes minutes rather than seconds.
 */
export async function startServer(
  env: Record<string, string> = {},
  {
    checkout = root,
    startsWithinMs = checkout === root ? SERVER_START_MS : 300_000,
  }: { checkout?: string; startsWithinMs?: number } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "ev-e2e-"));
  const url = `http://127.0.0.1:${port}`;
  const serverEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...env,
  };
  // A new embedded database starts from the migrated template instead of running initdb.
  if (checkout === root && !env.DATA_DIR && !(env.DATABASE_URL ?? process.env.DATABASE_URL)) {
    fs.cpSync(await migratedPgliteDirectory(), path.join(dataDir, "pglite"), { recursive: true });
  }
  const child = spawn(process.execPath, ["server/main.ts"], { cwd: checkout, env: serverEnv });
  const logs: string[] = [];
  const collect = (chunk: Buffer) => logs.push(...chunk.toString().split("\n").filter(Boolean));
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  await waitUntilServing(url, child, logs, startsWithinMs);
  return {
    url,
    dataDir,
    process: child,
    logs,
    cli: (...args) => runCli(args, serverEnv, checkout),
    async stop(signal = "SIGTERM") {
      let code = child.exitCode;
      // A process killed by a signal has no exit code, only a signalCode: it exited all the same.
      if (code === null && child.signalCode === null) {
        const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
        child.kill(signal);
        code = await exited;
      }
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * How long a server may take to answer: 60 s, or E2E_SERVER_START_MS on a machine shared with
 * other heavy work, where starting alone can take longer.
 */
const SERVER_START_MS = Number(process.env.E2E_SERVER_START_MS ?? 60_000);

/** Polls /api/health until the server answers, or fails with its output if it exits first. */
async function waitUntilServing(
  url: string,
  child: ChildProcess,
  logs: string[],
  withinMs: number,
) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}:\n${logs.join("\n")}`);
    }
    if (await isHealthy(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not start within ${withinMs / 1000} s:\n${logs.join("\n")}`);
}

/**
 * Asks /api/health once, on a connection of its own that closes after the answer: fetch would
 * keep it open for its next request, and a server stopped soon after waits for that idle
 * connection to time out (server/main.ts shuts down gracefully), seconds per test file.
 */
function isHealthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get(`${url}/api/health`, { agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      })
      .on("error", () => resolve(false));
  });
}

export function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  checkout: string = root,
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["server/cli.ts", ...args], { cwd: checkout, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}
