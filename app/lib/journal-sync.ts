import { callApi } from "./api.ts";
import { clearSynced, localEntryKey, readLocalJournal } from "./local-journal.ts";

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

export const hasUnsyncedEntries = () => readLocalJournal().some((entry) => !entry.synced);

/** 'entry' or 'entries' (docs/product/interactions.md, Journal). */
export const entries = (count: number) => (count === 1 ? "entry" : "entries");
