import { defineConfig } from "vitest/config";

/**
 * Five projects: unit tests beside the code, integration tests through app.request() on a fresh
 * database per file (both drivers), the security suites (the same way, SECURITY.md), browser
 * tests against the production build, and reliability tests that load, kill, cut off and stop
 * real server processes.
 *
 * Scheduling (README, Scripts): the first four share one pool of two files at a time
 * (`sequence.groupOrder` 0), so a browser test waiting on a page overlaps a database test's CPU
 * work instead of leaving a core idle; the reliability files follow, one at a time and alone,
 * because each drives server processes flat out and measures how they recover.
 */
const SHARED_POOL = { maxWorkers: 2, sequence: { groupOrder: 0 } };
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
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
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
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          ...SHARED_POOL,
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
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
