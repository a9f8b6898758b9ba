import { and, eq, lte, sql } from "drizzle-orm";
import type { ImportConfirmInput, ImportJob, ImportPreview } from "../../common/schemas/import.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, invalid } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { importJobs } from "../db/schema.ts";
import { textSet } from "./identity.ts";
import { jobColumns, jobView, readJob } from "./job-progress.ts";
import type { JobRun } from "./job-run.ts";
import { type ImportInput, parseImport } from "./parse.ts";
import { isImportable, previewPoems, subscriberSummary, toStored } from "./preview.ts";
import { ImportFileError, type ImportSource, type ParsedImport } from "./types.ts";

/** An unconfirmed preview is kept this long (the poet may read it over lunch), then dropped. */
const PREVIEW_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * How a job starts: the preview of an export, stored as a job that writes nothing else until the
 * poet confirms, then the poet's (or the operator's) go, which hands it to the job's run.
 */
export function jobStart(deps: Pick<ServiceDeps, "db" | "logger" | "now">, run: JobRun) {
  const { db, now } = deps;

  function createPreview(
    createdBy: string | null,
    input: ImportInput,
    source?: ImportSource,
  ): Promise<ImportPreview> {
    const fileName =
      "fileName" in input ? input.fileName : input.directory.split(/[\\/]/).pop() || "folder";
    return parse(deps, input, source).then((parsed) =>
      keepPreview(db, createdBy, fileName, parsed),
    );
  }

  async function confirmJob(id: number, input: ImportConfirmInput): Promise<ImportJob> {
    const excluded = [...new Set(input.exclude)];
    const [job] = await db
      .update(importJobs)
      .set({
        state: "importing",
        excluded,
        updates: [...new Set(input.update ?? [])],
        // Only ids the export holds count as left out.
        selectedPoemCount: sql`${importJobs.poemCount} - (select count(*)::int from jsonb_array_elements(${importJobs.parsed} -> 'poems') as poem where poem ->> 'sourceId' in ${textSet(excluded)})`,
        fetchCovers: input.fetchCovers,
        subscribersConsented: input.subscribersConsented,
        confirmedAt: now(),
      })
      .where(and(eq(importJobs.id, id), eq(importJobs.state, "preview")))
      .returning(jobColumns);
    if (!job) {
      await readJob(db, id);
      throw conflict("This import was already confirmed");
    }
    run.loop.wake();
    return jobView(job);
  }

  return {
    /** Parses an export and keeps it as a job awaiting the poet's confirmation; nothing else is written. */
    preview(admin: AdminActor, input: ImportInput, source?: ImportSource): Promise<ImportPreview> {
      return createPreview(admin.id, input, source);
    },

    /**
     * The poet's go: the poems they kept, the cover choice and, for subscribers, their word that
     * the readers consented on the old platform. The job then runs in the background.
     */
    confirm(_admin: AdminActor, id: number, input: ImportConfirmInput): Promise<ImportJob> {
      return confirmJob(id, input);
    },

    /**
     * The operator's import (`npm run cli -- import`): the same preview, then, unless it is a dry
     * run, the same job with every poem chosen, run to its end here, batch after batch.
     */
    async importAsOperator(
      input: ImportInput,
      source: ImportSource | undefined,
      choices: { dryRun: boolean; fetchCovers: boolean; subscribersConsented: boolean },
    ): Promise<{ preview: ImportPreview; job: ImportJob | null }> {
      const preview = await createPreview(null, input, source);
      if (choices.dryRun) {
        await db.delete(importJobs).where(eq(importJobs.id, preview.job.id));
        return { preview, job: null };
      }
      const { id } = await confirmJob(preview.job.id, { exclude: [], ...choices });
      for (;;) {
        const job = await readJob(db, id);
        if (job.state !== "importing") return { preview, job: jobView(job) };
        if ((await run.step()) === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  };
}

/** Parses an export; a file the parsers refuse is a 400 naming the file and the line. */
async function parse(
  { logger, now }: Pick<ServiceDeps, "logger" | "now">,
  input: ImportInput,
  source?: ImportSource,
): Promise<ParsedImport> {
  try {
    return await parseImport(input, source, { now: now() });
  } catch (error) {
    if (error instanceof ImportFileError) {
      // The parsers' messages already say where: "posts.csv, line 12: …".
      throw invalid(error.message, { file: [error.message] });
    }
    const name = "fileName" in input ? input.fileName : input.directory;
    logger.warn({ err: error, file: name }, "an import file could not be read");
    throw invalid(`${name}: the file could not be read as an export`, {
      file: [`${name} could not be read`],
    });
  }
}

async function keepPreview(
  db: Database,
  createdBy: string | null,
  fileName: string,
  parsed: ParsedImport,
): Promise<ImportPreview> {
  const stored = toStored(parsed);
  await db.delete(importJobs).where(
    and(
      eq(importJobs.state, "preview"),
      // Real time, like the row's own created_at (docs/decisions/038-which-clock.md).
      lte(importJobs.createdAt, sql`now() - make_interval(secs => ${PREVIEW_KEPT_MS / 1000})`),
    ),
  );
  const [job] = await db
    .insert(importJobs)
    .values({
      source: stored.source,
      fileName,
      parsed: stored,
      poemCount: stored.poems.length,
      subscriberCount: stored.subscribers.length,
      importableSubscriberCount: stored.subscribers.filter(isImportable).length,
      selectedPoemCount: stored.poems.length,
      createdBy,
    })
    .returning(jobColumns);
  if (!job) throw new Error("import job insert returned nothing");
  return {
    job: jobView(job),
    poems: await previewPoems(db, stored),
    subscribers: await subscriberSummary(db, stored),
    skipped: stored.skipped,
  };
}
