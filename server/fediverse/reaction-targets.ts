import { and, eq } from "drizzle-orm";
import { poems } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { readPoemObjectUrl } from "./object-urls.ts";
import type { ReactionDeps } from "./reactions.ts";

/**
 * Which poem or stanza a reply, like or boost names, read back from the object id this site gave
 * it (server/fediverse/object-urls.ts).
 */

/** The published poem and stanza an object id names; null for anything else. */
export async function findTarget(
  { config, interactions }: ReactionDeps,
  objectId: string,
): Promise<{ poemId: number; stanzaIndex: number | null } | null> {
  const ref = readPoemObjectUrl(config.publicUrl, objectId);
  if (!ref) return null;
  const poem = await interactions.publishedPoem(ref.slug);
  if (!poem) return null;
  if (ref.stanzaIndex !== null && ref.stanzaIndex >= poem.stanzaCount) return null;
  return { poemId: poem.id, stanzaIndex: ref.stanzaIndex };
}

/**
 * The live poem (published or not) and stanza an object id names, for taking back what was
 * given to it: an Undo holds even after the poem was unpublished.
 */
export async function findUndoTarget(
  { db, config }: ReactionDeps,
  objectId: string | null,
): Promise<{ poemId: number; stanzaKey: string } | null> {
  const ref = objectId === null ? null : readPoemObjectUrl(config.publicUrl, objectId);
  if (!ref) return null;
  const [poem] = await db
    .select({ id: poems.id })
    .from(poems)
    .where(and(eq(poems.slug, ref.slug), isLive(poems)));
  if (!poem) return null;
  return { poemId: poem.id, stanzaKey: ref.stanzaIndex === null ? "" : String(ref.stanzaIndex) };
}
