import type { EchoCount } from "../../common/schemas/interactions.ts";
import { callApi } from "./api.ts";
import { reportFailure } from "./api-failure.ts";
import { removeLocally, saveLocally } from "./local-journal.ts";
import { notify } from "./toast.ts";

/**
 * What pressing Echo or Save sends and says on a stanza (docs/product/interactions.md), fetched
 * with the first press rather than with the poem page: a reader who only reads downloads none of
 * it (docs/product/performance.md). The button has already shown the change; these show the
 * server's answer when it comes, or take the change back.
 */

/** Sends an echo's toggle, `before` being the stanza's state before the press (decision 015). */
export async function sendEcho({
  slug,
  stanzaIndex,
  before,
  show,
}: {
  slug: string;
  stanzaIndex: number;
  before: EchoCount;
  show: (hasEchoed: boolean, count: number) => void;
}) {
  const countIf = (hasEchoed: boolean) =>
    before.count + Number(hasEchoed) - Number(before.userHasEchoed);
  const optimistic = !before.userHasEchoed;
  try {
    const { added } = await callApi("toggleEcho", { params: { slug }, body: { stanzaIndex } });
    // Another tab or device may have toggled meanwhile: show the server's answer.
    if (added !== optimistic) show(added, countIf(added));
    if (added) notify("Echo added", "Your appreciation has been quietly shared.");
  } catch (error) {
    show(before.userHasEchoed, before.count);
    reportFailure(error, "reader", "Your echo couldn't be saved right now.");
  }
}

/** Sends a journal toggle for the signed-in reader: the stanza saved, or taken out. */
export async function sendJournalEntry({
  slug,
  stanzaIndex,
  wasSaved,
  mark,
}: {
  slug: string;
  stanzaIndex: number;
  wasSaved: boolean;
  mark: (isSaved: boolean) => void;
}) {
  try {
    const { added } = await callApi("toggleJournalEntry", {
      body: { poemSlug: slug, stanzaIndex },
    });
    mark(added);
    if (added) notify("Saved to journal", "This stanza has been saved to your Ember Journal.");
    else notify("Removed from journal", "This stanza has been removed from your journal.");
  } catch (error) {
    mark(wasSaved);
    reportFailure(error, "reader", "Your journal entry couldn't be saved right now.");
  }
}

/**
 * An anonymous reader's journal, kept in this browser (docs/product/interactions.md, Journal):
 * the stanza saved or taken out; answers whether it is saved now.
 */
export function toggleLocalJournalEntry(
  poem: { id: number; slug: string; title: string; stanzas: string[] },
  stanzaIndex: number,
  isSaved: boolean,
): boolean {
  if (isSaved) {
    removeLocally(poem.slug, stanzaIndex);
    notify("Removed from journal", "This stanza has been removed from your local journal.");
    return false;
  }
  saveLocally({
    poemId: poem.id,
    poemSlug: poem.slug,
    poemTitle: poem.title,
    stanzaIndex,
    // The stanza as stored: the journal shows it through stanzaLines, which splits it again.
    stanzaText: poem.stanzas[stanzaIndex] ?? "",
  });
  notify("Saved to journal", "This verse has been saved locally.");
  return true;
}
