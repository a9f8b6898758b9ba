import { dismissToast, holdToast, releaseToast, type Toast } from "../lib/toast.ts";
import { X } from "./icons.ts";

/** The toast the Toaster's live region shows: its title, description, way onward and Close. */
export function ToastCard({ toast }: { toast: Toast }) {
  return (
    // The pointer and focus handlers only hold the toast's timer; they do nothing a reader
    // operates, so the toast stays a plain container.
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    <div
      onPointerEnter={() => holdToast(toast.id)}
      onPointerLeave={() => releaseToast(toast.id)}
      onFocus={() => holdToast(toast.id)}
      onBlur={() => releaseToast(toast.id)}
      className="pointer-events-auto flex w-[min(92vw,22rem)] items-start gap-3 rounded-lg border border-stone-200 bg-white p-4 text-sm shadow-lg motion-safe:animate-fade-in"
    >
      <div className={`flex-1 ${toast.tone === "error" ? "text-red-800" : "text-stone-900"}`}>
        <p className="font-semibold">{toast.title}</p>
        {toast.description && <p className="mt-1 text-stone-700">{toast.description}</p>}
        {toast.link && (
          <a
            href={toast.link.href}
            className="mt-2 inline-block font-medium text-ember-800 underline underline-offset-2 hover:text-ember-900"
          >
            {toast.link.label}
          </a>
        )}
      </div>
      {toast.action && (
        <button
          type="button"
          onClick={() => {
            dismissToast(toast.id);
            toast.action?.run();
          }}
          className="-my-1 rounded-full border border-stone-400 px-3 py-1 font-medium text-stone-900 hover:bg-stone-100"
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        aria-label="Close notification"
        className="-m-1 rounded p-1 text-stone-600 hover:bg-stone-100"
      >
        <X aria-hidden="true" className="h-4 w-4" />
      </button>
    </div>
  );
}
