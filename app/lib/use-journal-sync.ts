import { useEffect } from "react";
import { JOURNAL_AUTO_SYNC_DELAY_MS } from "../../common/constants.ts";
import { hasUnsyncedEntries } from "./local-journal.ts";

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
      // The syncing code comes only to a signed-in reader with something to sync.
      const { announceSync, syncLocalJournal } = await import("./journal-sync.ts");
      const result = await syncLocalJournal();
      announceSync(result, style);
      onDone?.();
    }, JOURNAL_AUTO_SYNC_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isSignedIn, style, onDone]);
}
