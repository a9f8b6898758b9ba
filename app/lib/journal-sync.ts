import { callApi } from "./api.ts";
import { clearSynced, localEntryKey, readLocalJournal } from "./local-journal.ts";
import { notify, notifyError } from "./toast.ts";

export interface SyncResult {
  synced: number;
  failed: number;
}

let inFlight: Promise<SyncResult> | undefined;

/**
 * Sends unsynced local entries to the cloud journal one at a time (PUT: add, never toggle). Each
 * counts as synced or failed; synced ones are then cleared from the browser, failed ones stay.
 * Concurrent callers (sign-in auto-sync and the journal page) share one run.
 */
export function syncLocalJournal(): Promise<SyncResult> {
  inFlight ??= (async () => {
    const synced = new Set<string>();
    let failed = 0;
    for (const entry of readLocalJournal().filter((candidate) => !candidate.synced)) {
      try {
        await callApi("addJournalEntry", {
          body: { poemSlug: entry.poemSlug, stanzaIndex: entry.stanzaIndex },
        });
        synced.add(localEntryKey(entry));
      } catch (error) {
        failed += 1;
        console.warn("journal sync: an entry failed", error);
      }
    }
    clearSynced(synced);
    return { synced: synced.size, failed };
  })().finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

/** 'entry' or 'entries' (docs/product/interactions.md, Journal). */
export const entries = (count: number) => (count === 1 ? "entry" : "entries");

/**
 * The sync toasts (docs/product/interactions.md, Syncing the local journal); `style` picks the
 * sign-in or the journal page wording.
 */
export function announceSync({ synced, failed }: SyncResult, style: "sign-in" | "journal-page") {
  if (synced === 0 && failed > 0) {
    notifyError("Sync failed", "Unable to sync your journal entries. Please try again.");
  } else if (failed > 0) {
    notifyError("Partial sync", `${failed} ${entries(failed)} failed to sync.`);
  } else if (synced > 0) {
    notify(
      "Journal synced",
      style === "sign-in"
        ? `${synced} local ${synced === 1 ? "entry" : "entries"} synced to your cloud journal.`
        : `${synced} ${entries(synced)} synced to cloud.`,
    );
  }
}
