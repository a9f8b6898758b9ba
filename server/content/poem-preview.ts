import { and, eq, inArray } from "drizzle-orm";
import { isCoverAllowedOnPages } from "../../common/cover-image.ts";
import type { PoemPreviewInput } from "../../common/schemas/admin.ts";
import type { Poem } from "../../common/schemas/poems.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { poems, tags } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";

/**
 * The editor's 'Preview' (docs/decisions/069): the poem form's unsaved values as the poem page
 * shows them, nothing written. Tags are named from the list; a cover the page's policy would
 * block is left out; a poem already saved under the slug lends its id and creation date.
 */
export function createPoemPreview({ db, config, now }: Pick<ServiceDeps, "db" | "config" | "now">) {
  return async function previewPoem(input: PoemPreviewInput): Promise<Poem> {
    const chosen = input.tagIds.length
      ? await db
          .select({ id: tags.id, name: tags.name })
          .from(tags)
          .where(inArray(tags.id, input.tagIds))
      : [];
    const [existing] = await db
      .select({ id: poems.id, createdAt: poems.createdAt })
      .from(poems)
      .where(and(eq(poems.slug, input.slug), isLive(poems)));
    const cover = input.coverUrl.trim();
    const coverUrl = cover && isCoverAllowedOnPages(cover, config.publicUrl.origin) ? cover : null;
    const title = input.title.trim();
    const at = now();
    return {
      id: existing?.id ?? 0,
      title,
      slug: input.slug,
      stanzas: input.stanzas.filter((stanza) => stanza.trim().length > 0),
      audioUrl: input.audioUrl.trim() || null,
      stanzaTimings: input.stanzaTimings ?? null,
      readingDuration: null,
      coverUrl,
      coverAlt: input.coverAlt.trim() || title,
      coverWidth: coverUrl ? input.coverWidth : null,
      coverHeight: coverUrl ? input.coverHeight : null,
      draft: true,
      publishAt: input.publishAt ? new Date(input.publishAt) : at,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
      tags: input.tagIds.flatMap((id) => chosen.filter((tag) => tag.id === id)),
    };
  };
}
