import { eq } from "drizzle-orm";
import { keepVersion, lockVersionToReplace } from "../content/poem-revisions.ts";
import { timingsToKeep } from "../content/stanza-timings.ts";
import type { Transaction } from "../db/client.ts";
import { importItems, poems, poemTags } from "../db/schema.ts";
import { fingerprintOf, type ImportedItem, itemKey, type StoredPoem } from "./identity.ts";

/**
 * The poems the poet chose to update from a later export of the same site
 * (docs/decisions/060-an-imported-poem-is-one-per-site.md): each one changed there since it was
 * imported. Its title, stanzas, tags and publication are replaced as an admin's save replaces
 * them: the version before is kept (poem revisions), readers' words follow their stanzas. Its
 * slug, cover and reading here are the poet's and stay. Answers how many were updated.
 */
export async function updateChangedPoems(
  tx: Transaction,
  input: {
    chosen: StoredPoem[];
    imported: Map<string, ImportedItem>;
    replacedBy: string | null;
    tagIdsFor: (names: string[]) => Promise<Map<string, number>>;
  },
): Promise<number> {
  let updated = 0;
  for (const poem of input.chosen) {
    const item = input.imported.get(itemKey(poem));
    const fingerprint = fingerprintOf(poem);
    if (!item || item.fingerprint === null || item.fingerprint === fingerprint) continue;
    const before = await lockVersionToReplace(tx, eq(poems.id, item.poemId));
    if (!before) continue;
    await keepVersion(tx, { id: input.replacedBy }, item.poemId, before, {
      title: poem.title,
      stanzas: poem.stanzas,
    });
    await tx
      .update(poems)
      .set({
        title: poem.title,
        stanzas: poem.stanzas,
        // New stanzas ask for their reading's timings again; the same stanzas keep them.
        ...timingsToKeep({ stanzas: poem.stanzas, audioUrl: before.audioUrl }, before),
        draft: poem.state === "draft",
        ...(poem.publishAt ? { publishAt: new Date(poem.publishAt) } : {}),
      })
      .where(eq(poems.id, item.poemId));
    const tagIds = await input.tagIdsFor(poem.tags);
    await tx.delete(poemTags).where(eq(poemTags.poemId, item.poemId));
    const links = [
      ...new Set(poem.tags.flatMap((name) => tagIds.get(name.trim().toLowerCase()) ?? [])),
    ].map((tagId) => ({ poemId: item.poemId, tagId }));
    if (links.length > 0) await tx.insert(poemTags).values(links).onConflictDoNothing();
    await tx.update(importItems).set({ fingerprint }).where(eq(importItems.poemId, item.poemId));
    updated += 1;
  }
  return updated;
}
