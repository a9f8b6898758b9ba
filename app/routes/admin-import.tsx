import { type FormEvent, useEffect, useState } from "react";
import { Link } from "react-router";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import {
  IMPORT_MAX_BYTES,
  type ImportJob,
  type ImportPreview,
  type ImportPreviewPoem,
  type ImportSourceName,
} from "../../common/schemas/import.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { adminCall } from "../components/admin/admin-call.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { inputClass, primaryButton, secondaryButton } from "../components/admin/ui.tsx";
import { useAdminList } from "../components/admin/use-admin-list.ts";
import { VerseLines } from "../components/verse.tsx";
import { adminMeta } from "../lib/admin-access.ts";
import { callApi } from "../lib/api.ts";
import { notify } from "../lib/toast.ts";

export const meta = () => adminMeta("Import");

const SOURCES: Array<{ value: ImportSourceName | ""; label: string; hint: string }> = [
  { value: "", label: "Find out from the file", hint: "" },
  { value: "substack", label: "Substack", hint: "the export .zip from Settings → Exports" },
  { value: "ghost", label: "Ghost", hint: "the JSON export, or the members CSV" },
  { value: "wordpress", label: "WordPress", hint: "the WXR .xml from Tools → Export" },
  { value: "files", label: "Plain files", hint: "a .zip of .md or .txt poems" },
];

const STATE_LABELS: Record<ImportPreviewPoem["state"], string> = {
  published: "Published",
  draft: "Draft",
  scheduled: "Scheduled",
};

const dateOf = (date: Date) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(date);

/** The server's `{message}` of a refused upload, or a plain account of the failure. */
async function failureMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === "string") return body.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return `The file could not be previewed (${response.status})`;
}

/**
 * Bringing poems and readers from another platform (docs/product/import.md): choose the export,
 * read the preview (every poem as it will read, its slug, tags, date and state, each one
 * selectable; the subscribers; what was skipped and why), confirm, and watch the import run.
 * Nothing is stored but the preview until the confirmation.
 */
export default function AdminImport() {
  const [source, setSource] = useState<ImportSourceName | "">("");
  const [file, setFile] = useState<File | null>(null);
  const [isReading, setReading] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set());
  /** Already imported poems, changed since, which the poet chose to update from this export. */
  const [updates, setUpdates] = useState<ReadonlySet<string>>(new Set());
  const [fetchCovers, setFetchCovers] = useState(true);
  const [consented, setConsented] = useState(false);
  const [job, setJob] = useState<ImportJob | null>(null);
  const jobs = useAdminList(endpoints.listImportJobs);
  const redirects = useAdminList(endpoints.listImportRedirects);

  // An import still running (this page was closed, or the server restarted): its progress.
  useEffect(() => {
    const running = jobs.items?.find((item) => item.state === "importing");
    if (running) setJob((shown) => shown ?? running);
  }, [jobs.items]);

  const jobId = job?.id;
  const isRunning = job?.state === "importing";
  const reloadLists = [jobs.reload, redirects.reload];
  // biome-ignore lint/correctness/useExhaustiveDependencies: the lists reload when the job ends.
  useEffect(() => {
    if (jobId === undefined || !isRunning) return;
    const timer = setInterval(async () => {
      try {
        const next = await callApi(endpoints.getImportJob, { params: { id: jobId } });
        setJob(next);
        if (next.state !== "importing") for (const reload of reloadLists) void reload();
      } catch {
        // The next poll tries again.
      }
    }, 1_000);
    return () => clearInterval(timer);
  }, [jobId, isRunning]);

  async function readFile(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setFileError("Choose the export file");
      return;
    }
    if (file.size > IMPORT_MAX_BYTES) {
      setFileError(
        `${file.name} is over the ${IMPORT_MAX_BYTES / 1024 / 1024} MB limit for an import`,
      );
      return;
    }
    setReading(true);
    setFileError(null);
    try {
      const query = new URLSearchParams({ fileName: file.name, ...(source ? { source } : {}) });
      const response = await fetch(`${endpoints.previewImport.path}?${query}`, {
        method: "POST",
        credentials: "include",
        headers: { "Content-Type": file.type || "application/octet-stream" },
        body: file,
      });
      if (!response.ok) {
        setFileError(await failureMessage(response));
        return;
      }
      const read = z.decode(endpoints.previewImport.answer, await response.json());
      setPreview(read);
      setExcluded(new Set(read.poems.filter((poem) => !poem.chosen).map((poem) => poem.sourceId)));
      setUpdates(new Set());
      setConsented(false);
      setJob(null);
    } catch {
      setFileError("The file could not be sent; try again");
    } finally {
      setReading(false);
    }
  }

  function toggle(sourceId: string) {
    const isAdding = excluded.has(sourceId);
    setExcluded((current) => {
      const next = new Set(current);
      if (isAdding) next.delete(sourceId);
      else next.add(sourceId);
      return next;
    });
    // A poem brought in before is chosen only to be updated from this export.
    if (preview?.poems.some((poem) => poem.sourceId === sourceId && poem.alreadyImported)) {
      setUpdates((current) => {
        const next = new Set(current);
        if (isAdding) next.add(sourceId);
        else next.delete(sourceId);
        return next;
      });
    }
  }

  async function confirm() {
    if (!preview) return;
    const result = await adminCall(
      endpoints.confirmImport,
      {
        params: { id: preview.job.id },
        body: {
          exclude: [...excluded],
          update: [...updates],
          fetchCovers,
          subscribersConsented: consented,
        },
      },
      { failure: "The import could not be started", isReasonShown: true },
    );
    if (!result.ok) return;
    notify("Import started", `${result.data.poemsSelected} poems from ${preview.job.fileName}.`);
    setJob(result.data);
    setPreview(null);
  }

  async function removeRedirect(id: number, path: string) {
    const result = await adminCall(
      endpoints.deleteImportRedirect,
      { params: { id } },
      { failure: "The redirect could not be removed", success: `${path} no longer redirects.` },
    );
    if (result.ok) await redirects.reload();
  }

  const chosen = preview ? preview.poems.length - excluded.size : 0;

  return (
    <AdminPage title="Import">
      <p className="mt-2 text-stone-700">
        Bring your poems and readers from Substack, Ghost, WordPress or a folder of text files. You
        see everything before anything is stored.
      </p>

      <form onSubmit={readFile} className="mt-6 grid gap-4 rounded-lg border border-stone-300 p-4">
        <label className="text-sm font-medium text-stone-800">
          Where it comes from
          <select
            className={inputClass}
            value={source}
            onChange={(event) => setSource(event.target.value as ImportSourceName | "")}
          >
            {SOURCES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.hint ? `${choice.label}: ${choice.hint}` : choice.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-stone-800">
          Export file
          <input
            type="file"
            name="file"
            className={inputClass}
            accept=".zip,.json,.csv,.xml,.md,.txt"
            aria-describedby={fileError ? "import-file-error" : undefined}
            aria-invalid={fileError ? true : undefined}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </label>
        {fileError && (
          <p id="import-file-error" role="alert" className="text-sm text-red-800">
            {fileError}
          </p>
        )}
        <div>
          <button type="submit" className={primaryButton} disabled={isReading}>
            {isReading ? "Reading…" : "Preview"}
          </button>
        </div>
      </form>

      {preview && (
        <section aria-labelledby="import-preview" className="mt-8">
          <h2 id="import-preview" className="font-serif text-2xl">
            What {preview.job.fileName} holds
          </h2>
          <p className="mt-1 text-stone-700">
            {preview.poems.length} poems found; {chosen} chosen. Nothing is stored until you import.
          </p>
          <ul className="mt-4 grid gap-4">
            {preview.poems.map((poem) => (
              <PreviewPoem
                key={`${poem.site}\n${poem.sourceId}`}
                poem={poem}
                isChosen={!excluded.has(poem.sourceId)}
                onToggle={() => toggle(poem.sourceId)}
              />
            ))}
          </ul>

          <h3 className="mt-8 font-serif text-xl">Subscribers</h3>
          <p className="mt-1 text-stone-700">
            {preview.subscribers.found} found: {preview.subscribers.receiving} receiving email
            there, {preview.subscribers.new} of them new here.
          </p>
          {preview.subscribers.skipped.length > 0 && (
            <ul className="mt-1 list-disc pl-6 text-stone-700">
              {preview.subscribers.skipped.map((skipped) => (
                <li key={skipped.reason}>
                  {skipped.count} skipped: {skipped.reason}
                </li>
              ))}
            </ul>
          )}
          {preview.subscribers.receiving > 0 && (
            <label className="mt-3 flex items-start gap-2 text-stone-800">
              <input
                type="checkbox"
                className="mt-1"
                checked={consented}
                onChange={(event) => setConsented(event.target.checked)}
              />
              <span>
                These readers subscribed to my writing there and agreed to receive it by email.
                Import them as confirmed subscribers (no confirmation email is sent; each digest has
                its one-click unsubscribe).
              </span>
            </label>
          )}

          {preview.skipped.length > 0 && (
            <>
              <h3 className="mt-8 font-serif text-xl">Skipped</h3>
              <ul className="mt-1 list-disc pl-6 text-stone-700">
                {preview.skipped.map((item) => (
                  <li key={item.sourceId}>
                    {item.title || item.sourceId}: {item.reason}
                  </li>
                ))}
              </ul>
            </>
          )}

          <label className="mt-6 flex items-start gap-2 text-stone-800">
            <input
              type="checkbox"
              className="mt-1"
              checked={fetchCovers}
              onChange={(event) => setFetchCovers(event.target.checked)}
            />
            <span>
              Copy cover images and readings to this site (otherwise they stay links to the old
              site)
            </span>
          </label>
          <div className="mt-4 flex flex-wrap gap-3">
            <button
              type="button"
              className={primaryButton}
              onClick={confirm}
              // Nothing chosen, nothing to import.
              disabled={chosen === 0}
            >
              Import {chosen} {chosen === 1 ? "poem" : "poems"}
              {consented ? " and subscribers" : ""}
            </button>
            <button type="button" className={secondaryButton} onClick={() => setPreview(null)}>
              Cancel
            </button>
          </div>
        </section>
      )}

      {job && <Progress job={job} />}

      <section aria-labelledby="import-redirects" className="mt-10">
        <h2 id="import-redirects" className="font-serif text-2xl">
          Old links
        </h2>
        <p className="mt-1 text-stone-700">
          Addresses of imported poems on their old site. Point the old domain here and each one
          opens the poem.
        </p>
        {redirects.items?.length === 0 && <p className="mt-2 text-stone-600">None yet.</p>}
        <ul className="mt-3 grid gap-2">
          {redirects.items?.map((redirect) => (
            <li
              key={redirect.id}
              className="flex flex-wrap items-center justify-between gap-2 border-b border-stone-200 pb-2"
            >
              <span className="min-w-0 break-all text-sm">
                <code>{redirect.path}</code> →{" "}
                <Link to={paths.poem(redirect.poemSlug)} className="underline">
                  {redirect.poemTitle}
                </Link>
              </span>
              <button
                type="button"
                className={secondaryButton}
                aria-label={`Remove the redirect from ${redirect.path}`}
                onClick={() => removeRedirect(redirect.id, redirect.path)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      </section>
    </AdminPage>
  );
}

function PreviewPoem({
  poem,
  isChosen,
  onToggle,
}: {
  poem: ImportPreviewPoem;
  isChosen: boolean;
  onToggle: () => void;
}) {
  const checkboxId = `import-poem-${poem.site}-${poem.sourceId}`;
  // A poem brought in before can only be updated, and only when it changed there since.
  const isChoosable = !poem.alreadyImported || poem.changed;
  return (
    <li
      className={`rounded-lg border p-4 ${isChosen ? "border-stone-300" : "border-dashed border-stone-400 bg-stone-100"}`}
    >
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          className="mt-2"
          checked={isChosen}
          disabled={!isChoosable}
          onChange={onToggle}
        />
        <div className="min-w-0">
          <label htmlFor={checkboxId} className="font-serif text-xl">
            {poem.title}
          </label>
          <p className="break-all text-sm text-stone-700">
            /poetry/{poem.slug}
            {poem.clashedWith && ` (“${poem.clashedWith}” is taken here)`}
          </p>
          <p className="text-sm text-stone-700">
            {STATE_LABELS[poem.state]}
            {poem.publishAt && ` · ${dateOf(poem.publishAt)}`}
            {poem.tags.length > 0 && ` · ${poem.tags.join(", ")}`}
            {poem.alreadyImported && !poem.changed && " · already imported"}
            {poem.changed &&
              (isChosen
                ? " · changed there since: it will be updated"
                : " · changed there since it was imported: tick it to update it")}
            {!isChosen && !poem.alreadyImported && " · left out"}
          </p>
          {poem.audioUrl && (
            <p className="break-all text-sm text-stone-700">Its reading: {poem.audioUrl}</p>
          )}
        </div>
      </div>
      <div className="mt-3 grid gap-[1em] font-serif text-stone-900">
        {poem.stanzas.map((stanza, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: stanzas are positional text.
          <p key={index}>
            <VerseLines lines={stanzaLines(stanza)} />
          </p>
        ))}
      </div>
      {poem.notes.length > 0 && (
        <ul className="mt-2 list-disc pl-6 text-sm text-stone-600">
          {poem.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {(poem.oldPaths.length > 0 || poem.notRedirected.length > 0) && (
        <ul className="mt-2 grid gap-1 text-sm text-stone-700">
          {poem.oldPaths.map((path) => (
            <li key={path} className="break-all">
              {path} → /poetry/{poem.slug}
            </li>
          ))}
          {poem.notRedirected.map(({ path, reason }) => (
            <li key={path} className="break-all">
              {path} will not redirect: {reason}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Progress({ job }: { job: ImportJob }) {
  const total = job.poemsSelected + job.subscribersToImport;
  const done = job.poemsDone + job.subscribersDone;
  return (
    <section
      aria-labelledby="import-progress"
      className="mt-8 rounded-lg border border-stone-300 p-4"
    >
      <h2 id="import-progress" className="font-serif text-2xl">
        {job.state === "importing" ? "Importing" : "Imported"} {job.fileName}
      </h2>
      <progress
        className="mt-3 w-full"
        value={done}
        max={Math.max(total, 1)}
        aria-label="Import progress"
      />
      <div role="status" className="mt-2 text-stone-800">
        <p>
          Poems: {job.poemsDone} of {job.poemsSelected}
          {job.poemsAlreadyImported > 0 && ` (${job.poemsAlreadyImported} already here)`}
        </p>
        {job.subscribersConsented && (
          <p>
            Subscribers: {job.subscribersImported} added, {job.subscribersExisting} already
            subscribed, {job.subscribersSkipped} skipped
          </p>
        )}
        {job.state === "done" && (
          <p className="mt-2 font-medium">
            Import finished.{" "}
            <Link to={pages.poetry} className="underline">
              See the poems
            </Link>
          </p>
        )}
        {job.state === "failed" && <p className="mt-2 text-red-800">{job.error}</p>}
      </div>
      {job.notes.length > 0 && (
        <ul className="mt-2 list-disc pl-6 text-sm text-stone-600">
          {job.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
