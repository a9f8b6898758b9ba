import { matchStanzas } from "../../../common/stanza-matching.ts";

/** One row of a restore's preview: a live stanza beside what the version has in its place. */
export interface StanzaChange {
  live: string | null;
  version: string | null;
  change: "unchanged" | "changed" | "added" | "removed";
}

/**
 * What restoring `version` would do to the live poem, stanza by stanza, in the version's order:
 * each version stanza beside the live stanza it matches (the same matching that moves readers'
 * words, common/stanza-matching.ts), and each live stanza with no counterpart where it stood.
 */
export function compareStanzas(live: string[], version: string[]): StanzaChange[] {
  const becomes = matchStanzas(live, version);
  const liveFor = new Map<number, number>();
  for (const [liveIndex, versionIndex] of becomes.entries()) {
    if (versionIndex != null && !liveFor.has(versionIndex)) liveFor.set(versionIndex, liveIndex);
  }
  const rows: StanzaChange[] = [];
  let nextRemoved = 0;
  const removedBefore = (limit: number) => {
    for (; nextRemoved < limit; nextRemoved += 1) {
      const text = live[nextRemoved];
      if (becomes[nextRemoved] == null && text !== undefined) {
        rows.push({ live: text, version: null, change: "removed" });
      }
    }
  };
  for (const [versionIndex, text] of version.entries()) {
    const liveIndex = liveFor.get(versionIndex);
    if (liveIndex === undefined) {
      rows.push({ live: null, version: text, change: "added" });
      continue;
    }
    removedBefore(liveIndex);
    const liveText = live[liveIndex] ?? "";
    rows.push({
      live: liveText,
      version: text,
      change: liveText === text ? "unchanged" : "changed",
    });
  }
  removedBefore(live.length);
  return rows;
}
