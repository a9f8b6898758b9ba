import { useEffect, useState } from "react";
import { endpoints } from "../../../common/endpoints.ts";
import type { PoemVersion, RemovedStanzaWords } from "../../../common/schemas/poems.ts";
import { callApi } from "../../lib/api.ts";
import { adminCall } from "./admin-call.ts";
import { secondaryButton } from "./ui.tsx";

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

/** The poem's earlier versions (date and time, stanza count, first line), each restorable. */
export function PoemVersions({
  poemId,
  timeZone,
  onRestored,
}: {
  poemId: number;
  timeZone: string;
  onRestored: () => void;
}) {
  const [versions, setVersions] = useState<PoemVersion[]>();

  useEffect(() => {
    callApi(endpoints.listPoemVersions, { params: { id: poemId } })
      .then(setVersions)
      .catch((error) => console.warn("the poem's versions could not be loaded", error));
  }, [poemId]);

  async function restore(version: PoemVersion) {
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
              onClick={() => restore(version)}
              aria-label={`Restore the version of ${when.format(version.savedAt)}`}
            >
              Restore
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
