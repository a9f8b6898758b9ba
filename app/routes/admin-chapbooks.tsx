import { useEffect, useState } from "react";
import { endpoints } from "../../common/endpoints.ts";
import { CHAPBOOK_TRIM_LABELS, type Chapbook } from "../../common/schemas/chapbooks.ts";
import { adminCall } from "../components/admin/admin-call.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { ChapbookForm } from "../components/admin/chapbook-form.tsx";
import { primaryButton, secondaryButton } from "../components/admin/ui.tsx";
import { useAdminList } from "../components/admin/use-admin-list.ts";
import { adminMeta } from "../lib/admin-access.ts";

export const meta = () => adminMeta("Chapbooks");

/** How often the list looks again while a chapbook's files are being made. */
const PROGRESS_POLL_MS = 2_000;

/** A build's state in the poet's words (docs/product/chapbook.md). */
export function buildLabel({ build }: Chapbook): string {
  if (build.state === "queued") return "Queued";
  if (build.state === "building") return `Making… ${build.progress} of ${build.poemCount} poems`;
  if (build.state === "failed") return `Failed: ${build.error ?? "see the log"}`;
  return "Ready";
}

const isBuilding = (chapbook: Chapbook) =>
  chapbook.build.state === "queued" || chapbook.build.state === "building";

/** The poet's chapbooks: made from chosen poems, as a PDF and an EPUB (docs/product/chapbook.md). */
export default function AdminChapbooks() {
  const { items: chapbooks, isFailed, reload } = useAdminList(endpoints.listChapbooks);
  const { items: poems } = useAdminList(endpoints.listAdminPoems);
  const { items: settings } = useAdminList(endpoints.getSiteSettings);
  const [editing, setEditing] = useState<number | "new">();
  const anyBuilding = chapbooks?.some(isBuilding) ?? false;

  useEffect(() => {
    if (!anyBuilding) return;
    const timer = setInterval(() => void reload(), PROGRESS_POLL_MS);
    return () => clearInterval(timer);
  }, [anyBuilding, reload]);

  const close = async () => {
    setEditing(undefined);
    await reload();
  };
  const form = (chapbook?: Chapbook) =>
    poems && settings ? (
      <ChapbookForm
        chapbook={chapbook}
        poems={poems}
        siteTitle={settings.siteTitle}
        poetBio={settings.poetBio ?? ""}
        bookSlotTitles={settings.bookSlotTitles}
        onDone={close}
      />
    ) : null;

  async function remove(chapbook: Chapbook) {
    if (!window.confirm(`Delete the chapbook "${chapbook.title}"?`)) return;
    const result = await adminCall(
      endpoints.deleteChapbook,
      { params: { id: chapbook.id } },
      { success: "Chapbook deleted", failure: "Failed to delete chapbook" },
    );
    if (result.ok) await reload();
  }

  return (
    <AdminPage title="Chapbooks">
      <p className="mt-2 text-stone-700">
        Choose poems, put them in order, and download a print-ready PDF and an EPUB.
      </p>
      {isFailed && <p role="alert">The chapbooks could not be loaded.</p>}
      <div className="mt-6">
        {editing === "new" ? (
          form()
        ) : (
          <button type="button" className={primaryButton} onClick={() => setEditing("new")}>
            New chapbook
          </button>
        )}
      </div>
      <ul className="mt-6 space-y-4">
        {chapbooks?.map((chapbook) => (
          <li key={chapbook.id} className="rounded-lg border border-stone-300 bg-white p-5">
            {editing === chapbook.id ? (
              form(chapbook)
            ) : (
              <article aria-labelledby={`chapbook-${chapbook.id}`} className="flex gap-4">
                {chapbook.coverUrl && (
                  <img
                    src={chapbook.coverUrl}
                    alt=""
                    width={64}
                    height={96}
                    className="h-24 w-16 shrink-0 rounded border border-stone-200 object-cover"
                  />
                )}
                <div className="min-w-0 flex-1">
                  <h2 id={`chapbook-${chapbook.id}`} className="font-serif text-xl">
                    {chapbook.title}
                  </h2>
                  <p className="mt-1 text-stone-700">
                    {chapbook.poemIds.length} poems · {CHAPBOOK_TRIM_LABELS[chapbook.trim]} ·{" "}
                    {chapbook.downloadable ? "Downloadable" : "Private"}
                  </p>
                  <p className="mt-1 text-sm" role="status" aria-live="polite">
                    {buildLabel(chapbook)}
                  </p>
                  {chapbook.build.state === "ready" && (
                    <p className="mt-3 flex flex-wrap gap-x-5 gap-y-2 text-sm">
                      <a
                        className="text-ember-700 underline underline-offset-4"
                        href={chapbook.pdfUrl}
                        download
                      >
                        Download PDF
                      </a>
                      <a
                        className="text-ember-700 underline underline-offset-4"
                        href={chapbook.epubUrl}
                        download
                      >
                        Download EPUB
                      </a>
                    </p>
                  )}
                  <div className="mt-4 flex flex-wrap items-center gap-2">
                    <button
                      type="button"
                      className={secondaryButton}
                      onClick={() => setEditing(chapbook.id)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className={secondaryButton}
                      onClick={() => remove(chapbook)}
                    >
                      Delete
                    </button>
                  </div>
                </div>
              </article>
            )}
          </li>
        ))}
      </ul>
    </AdminPage>
  );
}
