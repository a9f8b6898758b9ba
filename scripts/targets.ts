/**
 * The targets of docs/product/performance.md, checked against what a bench or audit measured and
 * printed as met or MISSED. A missed target is reported as it is, never adjusted to the run.
 */
export interface TargetCheck {
  /** What is measured, and the limit: "poem page p99 ≤ 15 ms". */
  target: string;
  measured: number;
  isMet: boolean;
}

export function atLeast(target: string, measured: number, limit: number): TargetCheck {
  return { target, measured, isMet: measured >= limit };
}

export function atMost(target: string, measured: number, limit: number): TargetCheck {
  return { target, measured, isMet: measured <= limit };
}

export function printTargets(checks: TargetCheck[]): void {
  const missed = checks.filter((check) => !check.isMet).length;
  process.stdout.write(`\nTargets: ${checks.length - missed} met, ${missed} missed\n`);
  for (const check of checks) {
    process.stdout.write(
      `${(check.isMet ? "met" : "MISSED").padEnd(7)} ${check.target}: ${check.measured}\n`,
    );
  }
}
