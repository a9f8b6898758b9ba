import { LOCAL_JOURNAL_MAX_ENTRIES, LOCAL_JOURNAL_STORAGE_KEY } from "../../common/constants.ts";

/** A stanza saved in this browser (docs/product/interactions.md, Journal). */
export interface LocalJournalEntry {
  poemId: number;
  poemSlug: string;
  poemTitle: string;
  stanzaIndex: number;
  stanzaText: string;
  timestamp: number;
  synced: boolean;
}

function isEntry(value: unknown): value is LocalJournalEntry {
  const entry = value as LocalJournalEntry;
  return (
    typeof entry === "object" &&
    entry !== null &&
    typeof entry.poemSlug === "string" &&
    typeof entry.poemTitle === "string" &&
    Number.isInteger(entry.stanzaIndex) &&
    typeof entry.stanzaText === "string" &&
    typeof entry.timestamp === "number" &&
    typeof entry.synced === "boolean"
  );
}

/** Every readable entry, newest first. Storage errors and malformed content are logged, never thrown. */
export function readLocalJournal(): LocalJournalEntry[] {
  try {
    const raw = window.localStorage.getItem(LOCAL_JOURNAL_STORAGE_KEY);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) throw new Error("the local journal is not a list");
    const entries = parsed.filter(isEntry);
    if (entries.length !== parsed.length) console.warn("local journal: ignored malformed entries");
    return entries.sort((a, b) => b.timestamp - a.timestamp);
  } catch (error) {
    console.warn("local journal: could not be read", error);
    return [];
  }
}

function writeLocalJournal(entries: LocalJournalEntry[]) {
  try {
    window.localStorage.setItem(LOCAL_JOURNAL_STORAGE_KEY, JSON.stringify(entries));
    window.dispatchEvent(new Event("ember-journal-change"));
  } catch (error) {
    console.warn("local journal: could not be written", error);
  }
}

export const hasUnsyncedEntries = () => readLocalJournal().some((entry) => !entry.synced);

const sameStanza = (entry: LocalJournalEntry, poemSlug: string, stanzaIndex: number) =>
  entry.poemSlug === poemSlug && entry.stanzaIndex === stanzaIndex;

export function isSavedLocally(poemSlug: string, stanzaIndex: number): boolean {
  return readLocalJournal().some((entry) => sameStanza(entry, poemSlug, stanzaIndex));
}

/** Saves a stanza: newest first, the same poem and stanza replaced, at most 200 (oldest dropped). */
export function saveLocally(entry: Omit<LocalJournalEntry, "timestamp" | "synced">) {
  const others = readLocalJournal().filter(
    (existing) => !sameStanza(existing, entry.poemSlug, entry.stanzaIndex),
  );
  writeLocalJournal(
    [{ ...entry, timestamp: Date.now(), synced: false }, ...others].slice(
      0,
      LOCAL_JOURNAL_MAX_ENTRIES,
    ),
  );
}

export function removeLocally(poemSlug: string, stanzaIndex: number) {
  writeLocalJournal(
    readLocalJournal().filter((entry) => !sameStanza(entry, poemSlug, stanzaIndex)),
  );
}

/** After a sync: entries that reached the cloud are marked, then cleared from the browser. */
export function clearSynced(syncedKeys: Set<string>) {
  writeLocalJournal(readLocalJournal().filter((entry) => !syncedKeys.has(localEntryKey(entry))));
}

export const localEntryKey = (entry: Pick<LocalJournalEntry, "poemSlug" | "stanzaIndex">) =>
  `${entry.poemSlug}#${entry.stanzaIndex}`;
