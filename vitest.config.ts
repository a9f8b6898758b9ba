import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/*
 * Every test file's worker, every test server and every CLI call a test makes is a new Node
 * process that loads the same modules (drizzle-orm alone is hundreds of files). With Node's
 * compile cache the first process compiles them and every later one reads the bytecode: about a
 * quarter off each load. Node keys the cache by its version and each file's contents, so a stale
 * entry is never used. Set here, it reaches every process the run starts.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "ev-node-compile-cache");

/**
 * Five projects: unit tests beside the code, integration tests through app.request() on a fresh
 * database per file (both drivers), the security suites (the same way, SECURITY.md), browser
 * tests against the production build, and reliability tests that load, kill, cut off and stop
 * real server processes.
 *
 * Scheduling (README, Scripts): unit, integration and security files share one pool of two files
 * at a time (`sequence.groupOrder` 0). The browser files follow, two at a time: one file keeps
 * a server, a Chromium and the test busy only about half the time on a quiet machine (waiting on
 * each other), so two at once took the 36 files from 17 to 13.5 minutes. The reliability files
 * come last, alone, because each drives server processes flat out and measures how they recover.
 */
const SHARED_POOL = { maxWorkers: 2, sequence: { groupOrder: 0 } };
/**
 * A worker keeps the modules it has loaded from one test file to the next: each file loading the
 * whole server again (drizzle-orm, better-auth, Fedify…) was a third of the run. Every file builds
 * its own app and database (tests/helpers/test-app.ts), or starts its own server and browser, so
 * nothing a test sees is shared. A file that replaces a module with `vi.mock` needs a fresh
 * module graph: it is listed here and runs in a worker of its own.
 */
const SHARED_MODULES = { isolate: false };
const MOCKING_FILES = ["tests/integration/og.test.ts"];
export default defineConfig({
  test: {
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "common/**/*.test.ts",
            "server/**/*.test.ts",
            "app/**/*.test.ts",
            "tests/rules/**/*.test.ts",
          ],
          environment: "node",
          ...SHARED_POOL,
          ...SHARED_MODULES,
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: [...MOCKING_FILES],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          ...SHARED_POOL,
          ...SHARED_MODULES,
        },
      },
      {
        test: {
          name: "integration-mocks",
          include: [...MOCKING_FILES],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          ...SHARED_POOL,
        },
      },
      {
        test: {
          name: "security",
          include: ["tests/security/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...SHARED_POOL,
          ...SHARED_MODULES,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          ...SHARED_MODULES,
        },
      },
      {
        test: {
          name: "reliability",
          include: ["tests/reliability/**/*.test.ts"],
          environment: "node",
          // The load test runs RELIABILITY_SECONDS (60 by default) and then checks the database.
          testTimeout: 240_000,
          hookTimeout: 120_000,
          // Each file drives several server processes flat out: one at a time, alone.
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
