import { useEffect, useState } from "react";
import { endpoints } from "../../../common/endpoints.ts";
import type { AdminPoem, PoemVersion, RemovedStanzaWords } from "../../../common/schemas/poems.ts";
import { stanzaLines } from "../../../common/stanza.ts";
import { callApi } from "../../lib/api.ts";
import { ModalDialog } from "../modal-dialog.tsx";
import { VerseLines } from "../verse.tsx";
import { adminCall } from "./admin-call.ts";
import { primaryButton, secondaryButton } from "./ui.tsx";
import { compareStanzas, type StanzaChange } from "./version-diff.ts";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * '2 whispers and 5 echoes were on a stanza you removed': what a revision set aside, hidden from
 * readers and brought back by restoring a version that has the stanza. Empty when nothing was.
 */
export function removedWordsNotice(removed: RemovedStanzaWords): string {
  const parts = [
    removed.whispers > 0 && plural(removed.whispers, "whisper", "whispers"),
    removed.echoes > 0 && plural(removed.echoes, "echo", "echoes"),
    removed.journalEntries > 0 && plural(removed.journalEntries, "saved stanza", "saved stanzas"),
  ].filter((part): part is string => Boolean(part));
  if (parts.length === 0) return "";
  const list =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  const total = removed.whispers + removed.echoes + removed.journalEntries;
  return `${list} ${total === 1 ? "was" : "were"} on a stanza you removed`;
}

/**
 * The poem's earlier versions (date and time, stanza count, first line), each restorable: a
 * restore first shows what it will change, stanza by stanza beside the live text, and asks.
 */
export function PoemVersions({
  poem,
  timeZone,
  onRestored,
}: {
  /** The live poem, as saved. */
  poem: Pick<AdminPoem, "id" | "title" | "stanzas">;
  timeZone: string;
  onRestored: () => void;
}) {
  const poemId = poem.id;
  const [versions, setVersions] = useState<PoemVersion[]>();
  const [confirming, setConfirming] = useState<PoemVersion>();

  useEffect(() => {
    callApi(endpoints.listPoemVersions, { params: { id: poemId } })
      .then(setVersions)
      .catch((error) => console.warn("the poem's versions could not be loaded", error));
  }, [poemId]);

  async function restore(version: PoemVersion) {
    setConfirming(undefined);
    const result = await adminCall(
      endpoints.restorePoemVersion,
      { params: { id: poemId, versionId: version.id }, body: {} },
      { success: "Version restored successfully", failure: "Failed to restore version" },
    );
    if (result.ok) onRestored();
  }

  const when = new Intl.DateTimeFormat("en-US", {
    timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  });
  return (
    <section aria-label="Versions" className="space-y-2">
      <h4 className="text-sm font-medium">Versions</h4>
      {versions?.length === 0 && (
        <p className="text-sm text-stone-700">
          No earlier versions: this poem has not been revised.
        </p>
      )}
      <ul className="divide-y divide-stone-200 rounded border border-stone-200">
        {versions?.map((version) => (
          <li key={version.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
            <span className="min-w-0 flex-1">
              <span className="font-medium">{when.format(version.savedAt)}</span>
              {" · "}
              {plural(version.stanzaCount, "stanza", "stanzas")}
              {" · "}
              <span className="font-serif italic">{version.firstLine}</span>
            </span>
            <button
              type="button"
              className={secondaryButton}
              onClick={() => setConfirming(version)}
              aria-label={`Restore the version of ${when.format(version.savedAt)}`}
            >
              Restore
            </button>
          </li>
        ))}
      </ul>
      {confirming && (
        <ModalDialog
          title="Restore this version?"
          description={`The live poem will be replaced by the version of ${when.format(confirming.savedAt)}. Readers' echoes, whispers and saved stanzas move with their stanzas.`}
          onClose={() => setConfirming(undefined)}
          backdropClassName="bg-black/50"
          panelClassName="fixed inset-x-2 top-[5vh] mx-auto flex max-h-[90vh] max-w-3xl flex-col gap-3 overflow-y-auto rounded-lg bg-white p-4 text-stone-900 shadow-xl sm:p-6"
          titleClassName="font-serif text-xl"
          descriptionClassName="text-sm text-stone-700"
        >
          <VersionChanges poem={poem} version={confirming} />
          <div className="flex flex-wrap gap-3">
            <button type="button" className={primaryButton} onClick={() => restore(confirming)}>
              Replace the live poem
            </button>
            <button
              type="button"
              className={secondaryButton}
              onClick={() => setConfirming(undefined)}
            >
              Cancel
            </button>
          </div>
        </ModalDialog>
      )}
    </section>
  );
}

const CHANGE_LABELS: Record<StanzaChange["change"], string> = {
  unchanged: "Unchanged",
  changed: "Changed",
  added: "Added",
  removed: "Removed",
};

const CHANGE_CLASSES: Record<StanzaChange["change"], string> = {
  unchanged: "border-stone-200",
  changed: "border-amber-400 bg-amber-50",
  added: "border-emerald-600 bg-emerald-50",
  removed: "border-red-300 bg-red-50",
};

/** A stanza set as readers see it, its indentation kept: moving a line in is a change to see. */
function Stanza({ text }: { text: string | null }) {
  if (text === null) return <p className="text-stone-600 italic">(none)</p>;
  return (
    <p className="font-serif">
      <VerseLines lines={stanzaLines(text)} />
    </p>
  );
}

/** The live poem beside the version, stanza by stanza, each row saying what the restore does. */
function VersionChanges({
  poem,
  version,
}: {
  poem: Pick<AdminPoem, "title" | "stanzas">;
  version: PoemVersion;
}) {
  const rows = compareStanzas(poem.stanzas, version.stanzas);
  return (
    <table className="w-full table-fixed border-separate border-spacing-y-2 text-left text-sm">
      <caption className="sr-only">What the restore changes</caption>
      <thead>
        <tr>
          <th scope="col" className="w-1/2 pr-2 font-medium">
            Live now
          </th>
          <th scope="col" className="w-1/2 pl-2 font-medium">
            This version
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td className="pr-2 align-top">
            <span className="text-xs text-stone-600">Title</span>
            <p className="font-medium">{poem.title}</p>
          </td>
          <td className="pl-2 align-top">
            <span className="text-xs text-stone-600">
              Title{poem.title === version.title ? "" : " · Changed"}
            </span>
            <p className="font-medium">{version.title}</p>
          </td>
        </tr>
        {rows.map((row, index) => (
          // Rows are positions in the comparison; they have no other identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <tr key={index} data-change={row.change}>
            <td
              className={`rounded-l border-y border-l p-2 align-top ${CHANGE_CLASSES[row.change]}`}
            >
              <Stanza text={row.live} />
            </td>
            <td className={`rounded-r border p-2 align-top ${CHANGE_CLASSES[row.change]}`}>
              <span className="mb-1 block text-xs font-medium text-stone-700">
                {CHANGE_LABELS[row.change]}
              </span>
              <Stanza text={row.version} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
