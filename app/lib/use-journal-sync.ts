import { useEffect } from "react";
import { JOURNAL_AUTO_SYNC_DELAY_MS } from "../../common/constants.ts";
import { entries, hasUnsyncedEntries, type SyncResult, syncLocalJournal } from "./journal-sync.ts";
import { notify, notifyError } from "./toast.ts";

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

/**
 * One second after the reader is signed in, unsynced local entries go to the cloud journal
 * (docs/product/interactions.md). `onDone` lets a page refresh what it shows.
 */
export function useJournalAutoSync(
  isSignedIn: boolean,
  style: "sign-in" | "journal-page",
  onDone?: () => void,
) {
  useEffect(() => {
    if (!isSignedIn || !hasUnsyncedEntries()) return;
    const timer = setTimeout(async () => {
      const result = await syncLocalJournal();
      announceSync(result, style);
      onDone?.();
    }, JOURNAL_AUTO_SYNC_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isSignedIn, style, onDone]);
}
