import { lazy, Suspense, useSyncExternalStore } from "react";
import { currentToast, subscribeToToasts } from "../lib/toast.ts";

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
          <Suspense fallback={null}>
            <ToastCard key={toast.id} toast={toast} />
          </Suspense>
        )}
      </div>
    </section>
  );
}
