/**
 * The ids of the objects the site federates are the addresses readers already share: a poem's
 * `Article` is its page, `/poetry/{slug}`, and a stanza's `Note` is its share address,
 * `/share/poem/{slug}?s={index}` (index from 0), both absolute on PUBLIC_URL. A reply or a like
 * names one of these, so the same module makes them and reads them back.
 */

/** What an object id points at: a poem, or one of its stanzas. */
export interface PoemObjectRef {
  slug: string;
  /** The stanza's index from 0, or null for the whole poem. */
  stanzaIndex: number | null;
}

export function poemObjectUrl(publicUrl: URL, slug: string): URL {
  return new URL(`/poetry/${encodeURIComponent(slug)}`, publicUrl);
}

export function stanzaObjectUrl(publicUrl: URL, slug: string, index: number): URL {
  return new URL(`/share/poem/${encodeURIComponent(slug)}?s=${index}`, publicUrl);
}

const POEM_PATH = /^\/poetry\/([^/]+)\/?$/;
const STANZA_PATH = /^\/share\/poem\/([^/]+)\/?$/;

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
  const poem = POEM_PATH.exec(url.pathname);
  if (poem) return { slug: decodeSlug(poem[1] ?? ""), stanzaIndex: null };
  const stanza = STANZA_PATH.exec(url.pathname);
  const index = url.searchParams.get("s");
  if (!stanza || index === null || !/^\d{1,4}$/.test(index)) return null;
  return { slug: decodeSlug(stanza[1] ?? ""), stanzaIndex: Number(index) };
}

function decodeSlug(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
