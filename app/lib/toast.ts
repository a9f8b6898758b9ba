import { ACTION_TOAST_REMOVE_DELAY_MS, TOAST_REMOVE_DELAY_MS } from "../../common/constants.ts";

/**
 * Toasts with the spec's title/description pairs: one at a time (a new one replaces the one
 * shown), each removed TOAST_REMOVE_DELAY_MS after it appears (ACTION_TOAST_REMOVE_DELAY_MS for
 * one with an action, such as a delete's Undo) or at once when closed (docs/product/README.md). A small store rather than a toast library: every reader downloads it.
 */
export interface Toast {
  id: number;
  title: string;
  description?: string;
  tone: "info" | "error";
  /** A button in the toast (an admin's Undo), there for as long as the toast is. */
  action?: ToastAction;
  /** A way onward from the toast, such as "Sign in" for an action that needs it. */
  link?: ToastLink;
}

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface ToastLink {
  label: string;
  href: string;
}

let current: Toast | null = null;
let nextId = 1;
let removal: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

/** How long the toast shown stays: longer when it offers an action to reach. */
const delayOf = (toast: Omit<Toast, "id">) =>
  toast.action ? ACTION_TOAST_REMOVE_DELAY_MS : TOAST_REMOVE_DELAY_MS;

function show(toast: Omit<Toast, "id">) {
  clearTimeout(removal);
  const id = nextId++;
  current = { id, ...toast };
  removal = setTimeout(() => dismissToast(id), delayOf(toast));
  for (const listener of listeners) listener();
}

export function notify(title: string, description?: string, onward?: ToastAction | ToastLink) {
  if (onward && "href" in onward) show({ title, description, tone: "info", link: onward });
  else show({ title, description, tone: "info", action: onward });
}

export function notifyError(title: string, description?: string) {
  show({ title, description, tone: "error" });
}

/**
 * Keeps the toast with this id while the pointer or focus is on it, so an action in it (Undo)
 * can be reached in time by any hand; released, it gets its full time again.
 */
export function holdToast(id: number) {
  if (current?.id === id) clearTimeout(removal);
}

export function releaseToast(id: number) {
  if (current?.id !== id) return;
  clearTimeout(removal);
  removal = setTimeout(() => dismissToast(id), delayOf(current));
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
