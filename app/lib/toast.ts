import { toast } from "sonner";

/**
 * Toasts with the spec's title/description pairs. The Toaster shows one at a time
 * (app/components/toaster.tsx), as SPEC.md §4 asks.
 */
export function notify(title: string, description?: string) {
  toast(title, { description });
}

export function notifyError(title: string, description?: string) {
  toast.error(title, { description });
}
