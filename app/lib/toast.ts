import { TOAST_REMOVE_DELAY_MS } from "../../common/constants.ts";

/**
 * Toasts with the spec's title/description pairs: one at a time (a new one replaces the one
 * shown), each removed TOAST_REMOVE_DELAY_MS after it appears or at once when closed
 * (SPEC.md §4, §9). A small store rather than a toast library: every reader downloads it.
 */
export interface Toast {
  id: number;
  title: string;
  description?: string;
  tone: "info" | "error";
  /** A way onward from the toast, such as "Sign in" for an action that needs it. */
  link?: { label: string; href: string };
}

let current: Toast | null = null;
let nextId = 1;
let removal: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function show(toast: Omit<Toast, "id">) {
  clearTimeout(removal);
  const id = nextId++;
  current = { id, ...toast };
  removal = setTimeout(() => dismissToast(id), TOAST_REMOVE_DELAY_MS);
  for (const listener of listeners) listener();
}

export function notify(title: string, description?: string, link?: Toast["link"]) {
  show({ title, description, tone: "info", link });
}

export function notifyError(title: string, description?: string) {
  show({ title, description, tone: "error" });
}

/** Removes the toast with this id, if it is still the one shown. */
export function dismissToast(id: number) {
  if (current?.id !== id) return;
  clearTimeout(removal);
  current = null;
  for (const listener of listeners) listener();
}

export function subscribeToToasts(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function currentToast(): Toast | null {
  return current;
}
