import { lazy, Suspense, useSyncExternalStore } from "react";
import { currentToast, subscribeToToasts, type Toast } from "../lib/toast.ts";

/** A toast's card comes with the first toast shown, not with the page (decision 030). */
const ToastCard = lazy(() =>
  import("./toast-card.tsx").then(({ ToastCard }) => ({ default: ToastCard })),
);

/**
 * The one toast shown at a time (app/lib/toast.ts), in a polite live region that is always in
 * the page, so screen readers announce each toast as it appears.
 */
export function Toaster() {
  const toast = useSyncExternalStore(subscribeToToasts, currentToast, () => null);
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4"
    >
      <div role="status" aria-live="polite" aria-atomic="true">
        {toast && (
          <Suspense fallback={<ToastWords toast={toast} />}>
            <ToastCard key={toast.id} toast={toast} />
          </Suspense>
        )}
      </div>
    </section>
  );
}

/**
 * The toast's words, shown at once while its card (its link and buttons) is on its way: a message
 * such as "You are logged out" is read before the page moves on, however slow the network.
 */
function ToastWords({ toast }: { toast: Toast }) {
  return (
    <div
      className={`w-[min(92vw,22rem)] rounded-lg border border-stone-200 bg-white p-4 text-sm shadow-lg ${toast.tone === "error" ? "text-red-800" : "text-stone-900"}`}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description && <p className="mt-1 text-stone-700">{toast.description}</p>}
    </div>
  );
}
