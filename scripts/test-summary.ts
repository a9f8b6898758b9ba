import fs from "node:fs";

/** Prints the totals of a Vitest JSON report as the one line CI reads: 'N passed, N failed'. */
const file = process.argv[2] ?? "test-results/vitest.json";
if (!fs.existsSync(file)) {
  process.stdout.write("0 passed, 1 failed\n");
  process.stderr.write(`no test report at ${file}: the suite did not run to the end\n`);
  process.exit(1);
}
const report = JSON.parse(fs.readFileSync(file, "utf8")) as {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTests: number;
};
const skipped = report.numPendingTests > 0 ? `, ${report.numPendingTests} skipped` : "";
process.stdout.write(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped}\n`,
);
process.exit(report.numFailedTests > 0 || report.numTotalTests === 0 ? 1 : 0);
