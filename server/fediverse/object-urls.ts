import * as pages from "../../common/pages.ts";
import { matcherOf } from "../../common/path-builder.ts";
import * as paths from "../../common/paths.ts";
/**
 * The ids of the objects the site federates are the addresses readers already share: a poem's
 * `Article` is its page, and a stanza's `Note` is its share address with the stanza's index
 * from 0 (`paths.sharedStanza`), both absolute on PUBLIC_URL. A reply or a like
 * names one of these, so the same module makes them and reads them back.
 */

/** What an object id points at: a poem, or one of its stanzas. */
export interface PoemObjectRef {
  slug: string;
  /** The stanza's index from 0, or null for the whole poem. */
  stanzaIndex: number | null;
}

export function poemObjectUrl(publicUrl: URL, slug: string): URL {
  return new URL(paths.poem(slug), publicUrl);
}

export function stanzaObjectUrl(publicUrl: URL, slug: string, index: number): URL {
  return new URL(paths.sharedStanza(slug, index), publicUrl);
}

const poemPageOf = matcherOf(pages.poem);
const sharePageOf = matcherOf(pages.sharePoem);

/**
 * The poem or stanza an object id on this site names, or null for anything else (another host,
 * another page, a malformed index). Whether the poem exists or may be seen is the caller's
 * question, asked of the services.
 */
export function readPoemObjectUrl(publicUrl: URL, id: string): PoemObjectRef | null {
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return null;
  }
  if (url.origin !== publicUrl.origin) return null;
  // A trailing slash names the same page.
  const path = url.pathname.replace(/(.)\/$/, "$1");
  const poemSlug = poemPageOf(path)?.slug;
  if (poemSlug) return { slug: decodeSlug(poemSlug), stanzaIndex: null };
  const stanzaSlug = sharePageOf(path)?.slug;
  const index = url.searchParams.get("s");
  if (!stanzaSlug || index === null || !/^\d{1,4}$/.test(index)) return null;
  return { slug: decodeSlug(stanzaSlug), stanzaIndex: Number(index) };
}

function decodeSlug(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
