import { randomUUID } from "node:crypto";
import { and, eq, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { importJobs } from "../db/schema.ts";
import { leasedRows } from "../jobs/leased-rows.ts";
import { jobColumns } from "./job-progress.ts";

/** The job's claim passed to another instance mid-batch: the batch is rolled back. */
export class LostClaimError extends Error {
  override name = "LostClaimError";
}

/**
 * This instance's claims on confirmed jobs, with a lease, as the digest sender claims deliveries
 * (docs/decisions/052-the-import-job.md).
 */
export function createJobClaims(db: Database, leaseSeconds: number) {
  /** This instance's claims; a restart is a new instance, whose claims are new. */
  const claimToken = randomUUID();

  /** Confirmed jobs, one at a time per claim: the oldest no live claim holds, or this instance's own. */
  const jobRows = leasedRows(db, {
    table: importJobs,
    claimable: and(
      eq(importJobs.state, "importing"),
      or(
        isNull(importJobs.claimedBy),
        eq(importJobs.claimedBy, claimToken),
        lte(importJobs.leaseUntil, sql`now()`),
      ),
    ),
    orderBy: [importJobs.id],
    returning: jobColumns,
    leaseSeconds,
  });
  /** The job's state write in a batch: only while this instance still holds the claim. */
  const ownedBy = (jobId: number) => jobRows.ownedBy(jobId, claimToken) as SQL;

  return { claimToken, jobRows, ownedBy };
}

export type JobClaims = ReturnType<typeof createJobClaims>;
