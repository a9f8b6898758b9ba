import { sql } from "drizzle-orm";
import type { ServiceDeps } from "./deps.ts";

/** The NOTIFY channel on which instances tell each other that readers' pages changed. */
export const CONTENT_CHANGED_CHANNEL = "ev_content_changed";

/**
 * "What readers see has changed": announced by the service that made the change (content-admin's
 * writes), heard by this instance at once and by the others through PostgreSQL NOTIFY, so cached
 * pages are never stale anywhere.
 */
export function createContentChanges({ db, logger }: Pick<ServiceDeps, "db" | "logger">) {
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  return {
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async announce(): Promise<void> {
      emit();
      try {
        await db.execute(sql`select pg_notify(${CONTENT_CHANGED_CHANNEL}, '')`);
      } catch (error) {
        logger.error({ err: error }, "other instances could not be told that content changed");
      }
    },

    /** A NOTIFY arrived (from another instance, or echoing our own announcement). */
    received: emit,
  };
}

export type ContentChanges = ReturnType<typeof createContentChanges>;
