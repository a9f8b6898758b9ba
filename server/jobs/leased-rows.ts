import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource, SelectedFieldsFlat } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { Database } from "../db/client.ts";

/**
 * A table whose rows are work, each held by at most one claim at a time: a claim token and the
 * time its lease ends (docs/decisions/077-one-home-for-background-work.md).
 */
export type LeasedTable = PgTable & {
  id: PgColumn;
  claimedBy: PgColumn;
  leaseUntil: PgColumn;
};

export interface LeasedRowsSpec<T extends LeasedTable, Fields extends SelectedFieldsFlat> {
  table: T;
  /** The rows a claim may take now: due, and held by no live lease. */
  claimable: SQL | undefined;
  /** Which claimable rows go first. */
  orderBy: (PgColumn | SQL)[];
  /** What a claim answers of each row it took. */
  returning: Fields;
  /** Written with each claim beside the lease: a status, an attempt counted. */
  onClaim?: PgUpdateSetSource<T>;
  /** How long a claim holds its rows before another instance may take them (a crash's bound). */
  leaseSeconds: number;
}

/**
 * Claims, settles and releases rows of one leased table. A claim locks the rows it reads with
 * FOR UPDATE SKIP LOCKED, so two instances never take the same row, and writes its token and
 * lease in the same statement; every later write of the work carries `ownedBy`, so a claim that
 * outlived its lease (another instance took the row) changes nothing. Leases are timed by the
 * database's clock, which every instance reads alike (docs/decisions/038-which-clock.md).
 */
export function leasedRows<T extends LeasedTable, Fields extends SelectedFieldsFlat>(
  db: Database,
  spec: LeasedRowsSpec<T, Fields>,
) {
  const { table } = spec;
  // Drizzle types `set` by the table's own columns; every leased table has these two.
  const values = (set: Record<string, unknown>) => set as PgUpdateSetSource<T>;
  const ownedBy = (id: number, claimToken: string) =>
    and(eq(table.id, id), eq(table.claimedBy, claimToken));

  return {
    ownedBy,

    /** The lease's end from now: a long piece of work writes it again as it goes. */
    lease: () => sql`now() + make_interval(secs => ${spec.leaseSeconds})`,

    async claim(claimToken: string, limit: number): Promise<SelectResultFields<Fields>[]> {
      const claimable = db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(spec.claimable)
        .orderBy(...spec.orderBy)
        .limit(limit)
        .for("update", { skipLocked: true });
      const claimed = await db
        .update(table)
        .set(
          values({
            ...spec.onClaim,
            claimedBy: claimToken,
            leaseUntil: sql`now() + make_interval(secs => ${spec.leaseSeconds})`,
          }),
        )
        .where(inArray(table.id, claimable))
        .returning(spec.returning);
      return claimed as SelectResultFields<Fields>[];
    },

    /** Writes the work's outcome and ends the claim, if this claim still holds the row. */
    settle(id: number, claimToken: string, outcome: Record<string, unknown>) {
      return db
        .update(table)
        .set(values({ ...outcome, claimedBy: null, leaseUntil: null }))
        .where(ownedBy(id, claimToken));
    },

    /**
     * Ends every claim on the rows `where` names, at once. After a restart on the embedded
     * database this process is the only worker (the data directory is locked), so every claim it
     * finds was its own and died with it: there is no lease to wait out.
     */
    async releaseAll(where: SQL | undefined, outcome: Record<string, unknown> = {}) {
      await db
        .update(table)
        .set(values({ ...outcome, claimedBy: null, leaseUntil: null }))
        .where(where);
    },
  };
}
