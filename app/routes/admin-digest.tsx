import { type FormEvent, useEffect, useState } from "react";
import { endpoints } from "../../common/endpoints.ts";
import { DIGEST_SUBJECT_MAX_LENGTH, type DigestRun } from "../../common/schemas/digest.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { DigestSchedule } from "../components/admin/digest-schedule.tsx";
import { inputClass, primaryButton, secondaryButton } from "../components/admin/ui.tsx";
import { Copy, Download, ExternalLink, Send, Sparkles } from "../components/icons.ts";
import { ModalDialog } from "../components/modal-dialog.tsx";
import { adminMeta } from "../lib/admin-access.ts";
import { ApiError, callApi } from "../lib/api.ts";
import { reportFailure } from "../lib/api-failure.ts";
import { adminContext, appContext } from "../lib/app-context.ts";
import { copyText } from "../lib/clipboard.ts";
import { notify, notifyError } from "../lib/toast.ts";
import type { Route } from "./+types/admin-digest";

const RUNS_POLL_MS = 2_000;

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(appContext);
  const runs = await services.digest.listRuns(context.get(adminContext));
  return { runs, siteName: site.name };
}

export const meta = () => adminMeta("Weekly Ember Digest");

export default function AdminDigest({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Weekly Ember Digest">
      <DigestPreview />
      <SubscribersDownload />
      <DigestSchedule />
      <DigestSending initialRuns={loaderData.runs} siteName={loaderData.siteName} />
    </AdminPage>
  );
}

/** 'Generate Preview' fills the digest's content from the site, then renders it on the server. */
function DigestPreview() {
  const [html, setHtml] = useState<string>();
  const [isGenerating, setGenerating] = useState(false);

  async function generate() {
    setGenerating(true);
    try {
      const content = await callApi(endpoints.getDigestContent);
      const preview = await callApi(endpoints.previewDigest, { body: content });
      setHtml(preview.html);
      notify("Digest generated", "HTML preview is ready.");
    } catch (error) {
      reportFailure(error, "admin", "Unable to generate digest HTML.", "Generation failed");
    } finally {
      setGenerating(false);
    }
  }

  async function copy() {
    if (html && (await copyText(html))) notify("HTML copied");
    else notifyError("Copy failed", "Unable to copy HTML to clipboard.");
  }

  function open() {
    if (!html) return;
    const url = URL.createObjectURL(new Blob([html], { type: "text/html" }));
    window.open(url, "_blank", "noopener");
    // The new tab has loaded the document by then; the URL only has to outlive that.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  return (
    <div className="mt-8 rounded-lg border border-stone-300 bg-white p-5">
      <h2 className="font-serif text-xl">Preview</h2>
      <p className="mt-1 text-sm text-stone-700">
        This week's featured ember, the two most-echoed stanzas of the past seven days and the new
        poems.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <button type="button" className={primaryButton} onClick={generate} disabled={isGenerating}>
          <Sparkles aria-hidden className="size-4" />
          {isGenerating ? "Generating..." : "Generate Preview"}
        </button>
        {html && (
          <>
            <button type="button" className={secondaryButton} onClick={copy}>
              <Copy aria-hidden className="size-4" />
              Copy HTML
            </button>
            <button type="button" className={secondaryButton} onClick={open}>
              <ExternalLink aria-hidden className="size-4" />
              Open Preview
            </button>
          </>
        )}
      </div>
      {html && (
        <iframe
          title="Digest preview"
          srcDoc={html}
          sandbox=""
          className="mt-5 h-[32rem] w-full rounded border border-stone-200"
        />
      )}
    </div>
  );
}

function SubscribersDownload() {
  function download() {
    window.open("/api/admin/subscribers.csv", "_blank", "noopener");
    notify("Download started", "Subscribers CSV is being downloaded.");
  }
  return (
    <div className="mt-6 rounded-lg border border-stone-300 bg-white p-5">
      <h2 className="font-serif text-xl">Subscribers</h2>
      <p className="mt-1 text-sm text-stone-700">
        The verified subscriber list: email, verified at, subscribed at.
      </p>
      <button type="button" className={`${secondaryButton} mt-4`} onClick={download}>
        <Download aria-hidden className="size-4" />
        Download Subscribers CSV
      </button>
    </div>
  );
}

const STATUS_LABELS: Record<DigestRun["status"], string> = {
  sending: "Sending",
  paused: "Paused",
  sent: "Sent",
  skipped: "Skipped",
};

/** Sending this week's digest to every verified subscriber, and the runs so far. */
function DigestSending({ initialRuns, siteName }: { initialRuns: DigestRun[]; siteName: string }) {
  const [runs, setRuns] = useState(initialRuns);
  const [subject, setSubject] = useState(`This week's embers from ${siteName}`);
  const [isConfirming, setConfirming] = useState(false);
  const [recipients, setRecipients] = useState<number>();
  const [isSending, setSending] = useState(false);
  const activeRun = runs.find((run) => run.status !== "sent");
  const isRunning = activeRun?.status === "sending";

  useEffect(() => {
    if (!isRunning) return;
    const timer = setInterval(async () => {
      try {
        setRuns(await callApi(endpoints.listDigestRuns));
      } catch {
        // The next poll tries again; the table keeps its last figures meanwhile.
      }
    }, RUNS_POLL_MS);
    return () => clearInterval(timer);
  }, [isRunning]);

  async function send() {
    setSending(true);
    try {
      const run = await callApi(endpoints.sendDigest, { body: { subject } });
      setRuns((current) => [run, ...current]);
      setConfirming(false);
      notify("Digest queued", `Sending to ${run.recipientCount} subscribers.`);
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : undefined;
      reportFailure(error, "admin", message ?? "Unable to send the digest.", "Send failed");
    } finally {
      setSending(false);
    }
  }

  async function resume(runId: number) {
    try {
      const run = await callApi(endpoints.resumeDigestRun, { params: { id: runId }, body: {} });
      setRuns((current) => current.map((row) => (row.id === run.id ? run : row)));
      notify("Sending resumed");
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : undefined;
      reportFailure(error, "admin", message ?? "Unable to resume the digest.", "Resume failed");
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!subject.trim()) return;
    setRecipients(undefined);
    setConfirming(true);
    try {
      const audience = await callApi(endpoints.countDigestRecipients);
      setRecipients(audience.recipients);
    } catch {
      // The dialog still says who it goes to, without the number.
    }
  }

  const audience =
    recipients === undefined
      ? "every verified subscriber"
      : `${recipients} verified ${recipients === 1 ? "subscriber" : "subscribers"}`;

  return (
    <div className="mt-6 rounded-lg border border-stone-300 bg-white p-5">
      <h2 className="font-serif text-xl">Send</h2>
      <form onSubmit={confirm} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <label className="flex-1 text-sm font-medium">
          Subject
          <input
            value={subject}
            onChange={(event) => setSubject(event.target.value)}
            maxLength={DIGEST_SUBJECT_MAX_LENGTH}
            required
            className={inputClass}
          />
        </label>
        <button type="submit" className={primaryButton} disabled={Boolean(activeRun)}>
          <Send aria-hidden className="size-4" />
          Send Digest
        </button>
      </form>
      {activeRun && (
        <p className="mt-2 text-sm text-stone-700">
          One digest sends at a time: this one can go when the current run has finished.
        </p>
      )}

      {isConfirming && (
        <ModalDialog
          title="Send the digest now?"
          description={`“${subject.trim()}” goes to ${audience}. It cannot be recalled.`}
          onClose={() => setConfirming(false)}
          backdropClassName="bg-black/40"
          panelClassName="fixed top-1/2 left-1/2 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl"
          titleClassName="font-serif text-xl"
          descriptionClassName="mt-2 text-stone-700"
        >
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className={secondaryButton} onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className={primaryButton} onClick={send} disabled={isSending}>
              {isSending ? "Sending..." : "Send to subscribers"}
            </button>
          </div>
        </ModalDialog>
      )}

      <h3 className="mt-8 font-medium">Runs</h3>
      {runs.length === 0 ? (
        <p className="mt-2 text-sm text-stone-700">No digest has been sent yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-200">
          {runs.map((run) => (
            <li key={run.id} className="py-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium">{run.subject}</span>
                <span className="text-sm text-stone-700">{run.createdAt.toLocaleString()}</span>
              </div>
              <p className="mt-1 text-sm" aria-live={run.status === "sending" ? "polite" : "off"}>
                <span
                  className={
                    run.status === "paused"
                      ? "rounded bg-amber-100 px-2 py-0.5 text-amber-900"
                      : "rounded bg-stone-100 px-2 py-0.5 text-stone-800"
                  }
                >
                  {STATUS_LABELS[run.status]}
                </span>{" "}
                {run.status === "skipped" ? (
                  run.skipReason
                ) : (
                  <>
                    {run.sentCount} of {run.recipientCount} sent
                  </>
                )}
                {run.failedCount > 0 && `, ${run.failedCount} failed`}
                {run.skippedCount > 0 && `, ${run.skippedCount} unsubscribed before sending`}
                {run.pendingCount > 0 && `, ${run.pendingCount} waiting`}
              </p>
              {run.status === "paused" && (
                <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
                  <span className="text-amber-900">{run.pausedReason}</span>
                  <button type="button" className={secondaryButton} onClick={() => resume(run.id)}>
                    Resume sending
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
