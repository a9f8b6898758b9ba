import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False on the server and while the page hydrates, true from then on (and on client navigations).
 * For output that depends on the reader's browser, such as their time zone: the server's HTML
 * must be matched first, or React discards it (a hydration mismatch).
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
