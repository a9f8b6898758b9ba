import { endpoints } from "../../common/endpoints.ts";
import type { GuestSubmission } from "../../common/schemas/guest-submission.ts";
import { adminCall } from "../components/admin/admin-call.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { secondaryButton } from "../components/admin/ui.tsx";
import { useAdminList } from "../components/admin/use-admin-list.ts";
import { adminMeta } from "../lib/admin-access.ts";
import { notify } from "../lib/toast.ts";

export const meta = () => adminMeta("Guest Submissions");

const receivedOn = (date: Date) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(date);

/**
 * Poems sent through /contribute, newest first, for the monthly review (beyond the spec, which
 * shows them nowhere). Everything the submitter typed is shown as plain text.
 */
export default function AdminSubmissions() {
  const { items: submissions, isFailed, reload } = useAdminList(endpoints.listGuestSubmissions);

  async function markReviewed(submission: GuestSubmission) {
    const result = await adminCall(
      endpoints.markSubmissionReviewed,
      { params: { id: submission.id }, body: {} },
      { failure: "Failed to update submission" },
    );
    if (!result.ok) return;
    notify("Marked reviewed", `“${submission.poemTitle}” is marked reviewed.`);
    await reload();
  }

  async function publish(submission: GuestSubmission) {
    const result = await adminCall(
      endpoints.publishGuestSubmission,
      { params: { id: submission.id }, body: {} },
      { failure: "Failed to publish guest voice" },
    );
    if (!result.ok) return;
    notify(
      "Guest voice published",
      `“${submission.poemTitle}” is on /guest-voices/${result.data.slug}; ${submission.name} has been emailed.`,
    );
  }

  async function remove(submission: GuestSubmission) {
    if (!window.confirm(`Delete “${submission.poemTitle}” by ${submission.name}?`)) return;
    const result = await adminCall(
      endpoints.deleteGuestSubmission,
      { params: { id: submission.id } },
      { success: "Submission deleted successfully", failure: "Failed to delete submission" },
    );
    if (result.ok) await reload();
  }

  return (
    <AdminPage title="Guest Submissions">
      {isFailed && <p role="alert">The submissions could not be loaded.</p>}
      {submissions?.length === 0 && <p className="mt-6 text-stone-700">No submissions yet.</p>}
      <ul className="mt-6 space-y-4">
        {submissions?.map((submission) => (
          <li key={submission.id} className="rounded-lg border border-stone-300 bg-white p-5">
            <article aria-labelledby={`submission-${submission.id}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id={`submission-${submission.id}`} className="font-serif text-xl">
                  {submission.poemTitle}
                </h2>
                <span
                  className={`rounded px-2 py-0.5 text-xs ${
                    submission.reviewedAt
                      ? "bg-stone-100 text-stone-800"
                      : "bg-amber-100 text-amber-900"
                  }`}
                >
                  {submission.reviewedAt ? "Reviewed" : "New"}
                </span>
              </div>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-stone-600">From</dt>
                <dd className="break-words">
                  {submission.name} &lt;{submission.email}&gt;
                </dd>
                {submission.handle && (
                  <>
                    <dt className="text-stone-600">Handle</dt>
                    <dd className="break-words">{submission.handle}</dd>
                  </>
                )}
                {submission.socialUrl && (
                  <>
                    <dt className="text-stone-600">Link</dt>
                    <dd className="break-all">{submission.socialUrl}</dd>
                  </>
                )}
                {submission.bio && (
                  <>
                    <dt className="text-stone-600">Bio</dt>
                    <dd className="break-words">{submission.bio}</dd>
                  </>
                )}
                <dt className="text-stone-600">Received</dt>
                <dd>{receivedOn(submission.createdAt)}</dd>
              </dl>
              <p className="mt-4 font-serif break-words whitespace-pre-wrap">
                {submission.poemText}
              </p>
              <div className="mt-4 flex flex-wrap gap-2">
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => publish(submission)}
                >
                  Publish as guest voice
                </button>
                {!submission.reviewedAt && (
                  <button
                    type="button"
                    className={secondaryButton}
                    onClick={() => markReviewed(submission)}
                  >
                    Mark reviewed
                  </button>
                )}
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => remove(submission)}
                >
                  Delete
                </button>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </AdminPage>
  );
}
