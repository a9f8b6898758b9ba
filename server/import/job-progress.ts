import { desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { ImportJob } from "../../common/schemas/import.ts";
import type { AdminActor } from "../core/actor.ts";
import { notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { importJobs } from "../db/schema.ts";

/*
 * An import job as the poet follows it on the import page (docs/product/import.md): its progress
 * and the history of confirmed imports.
 */

/** A job as its progress is read: everything but the export it holds. */
const { parsed: _parsed, ...jobColumns } = getTableColumns(importJobs);

export { jobColumns };
export type JobRow = Omit<typeof importJobs.$inferSelect, "parsed">;

export function jobView(job: JobRow): ImportJob {
  return {
    id: job.id,
    source: job.source,
    fileName: job.fileName,
    state: job.state,
    poemsSelected: job.selectedPoemCount,
    poemsDone: job.poemsImported + job.poemsAlreadyImported,
    poemsImported: job.poemsImported,
    poemsAlreadyImported: job.poemsAlreadyImported,
    poemsUpdated: job.poemsUpdated,
    subscribersToImport: job.subscribersConsented ? job.importableSubscriberCount : 0,
    subscribersDone: job.subscribersImported + job.subscribersExisting,
    subscribersImported: job.subscribersImported,
    subscribersExisting: job.subscribersExisting,
    subscribersSkipped: job.subscribersSkipped,
    fetchCovers: job.fetchCovers,
    subscribersConsented: job.subscribersConsented,
    notes: job.notes,
    error: job.error,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  };
}

export async function readJob(db: Database, id: number): Promise<JobRow> {
  const [job] = await db.select(jobColumns).from(importJobs).where(eq(importJobs.id, id));
  if (!job) throw notFound("Import not found");
  return job;
}

/** One job's progress, and the imports confirmed so far. */
export function jobProgress(db: Database) {
  return {
    async getJob(_admin: AdminActor, id: number): Promise<ImportJob> {
      return jobView(await readJob(db, id));
    },

    /** The confirmed imports, newest first (previews not confirmed are not history). */
    async listJobs(_admin: AdminActor): Promise<ImportJob[]> {
      const rows = await db
        .select(jobColumns)
        .from(importJobs)
        .where(sql`${importJobs.state} <> 'preview'`)
        .orderBy(desc(importJobs.id))
        .limit(20);
      return rows.map(jobView);
    },
  };
}
