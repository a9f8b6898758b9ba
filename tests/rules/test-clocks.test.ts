import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One clock per test (docs/decisions/048-one-clock-per-test.md): a test file that hands the app a
 * clock of its own reads no other time. The real time may only start that clock; any other
 * `new Date()` or `Date.now()` in such a file mixes two clocks, and the test then passes or fails
 * by the day it runs. (The factories date their rows by the app's clock: tests/helpers/factories.ts.)
 */

const testsDir = path.resolve(import.meta.dirname, "..");

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** The file gives the services a clock that is not simply the real time. */
const pinsAClock = (source: string) => /\bnow:\s*\(\)\s*=>(?!\s*new Date\(\))/.test(source);

const REAL_TIME = /new Date\(\)|Date\.now\(\)/;
/** Starting (or restarting) the test's own clock at the real time is the one allowed read. */
const STARTS_THE_CLOCK = /\b(?:let|const)?\s*\w*clock\w*\s*=\s*new Date\(\)/i;

function realTimeReads(source: string): string[] {
  if (!pinsAClock(source)) return [];
  return source
    .split("\n")
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => REAL_TIME.test(line) && !STARTS_THE_CLOCK.test(line))
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

describe("test clocks", () => {
  it("finds a real-time read beside a pinned clock, and allows the clock's own start", () => {
    const pinned = [
      'let clock = new Date("2026-11-26T12:00:00Z");',
      "const t = await createTestApp(driver, { now: () => clock });",
      "clock = new Date();",
      "const day = new Date().toISOString();",
    ].join("\n");
    expect(realTimeReads(pinned)).toEqual(["4: const day = new Date().toISOString();"]);
    expect(realTimeReads("createTestApp(driver, { now: () => new Date() }); new Date();")).toEqual(
      [],
    );
  });

  it("no test file that pins the services' clock also reads the real time", () => {
    const others = testFiles(testsDir).filter((file) => file !== import.meta.filename);
    const offenders = others.flatMap((file) =>
      realTimeReads(fs.readFileSync(file, "utf8")).map(
        (read) => `${path.relative(testsDir, file)}:${read}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
