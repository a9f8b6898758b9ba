import type { ChapbookFace } from "../../common/schemas/chapbook-faces.ts";
import type { ChapbookTrim } from "../../common/schemas/chapbooks.ts";

/**
 * Everything a chapbook's files are made from, gathered once by the builder
 * (server/chapbook/builder.ts) and handed to the EPUB and PDF makers, which read nothing
 * else: they are pure, and run in a worker thread off the request path.
 */
export interface ChapbookContent {
  title: string;
  subtitle: string | null;
  dedication: string | null;
  epigraph: string | null;
  acknowledgements: string | null;
  aboutPoet: string | null;
  author: string;
  /** The site's address, for the copyright page and the package's identifier. */
  siteUrl: string;
  slug: string;
  copyright: string;
  /** When the chapbook was last changed: the package's modification date. */
  modified: string;
  /** The newest poem's publication day (YYYY-MM-DD): the package's date. */
  published: string;
  trim: ChapbookTrim;
  bleed: boolean;
  rectoStarts: boolean;
  /** The serif the PDF is set in and the EPUB embeds. */
  face: ChapbookFace;
  /** The poet's uploaded cover, made a JPEG; null for the typographic cover. */
  cover: ChapbookCover | null;
  poems: ChapbookPoem[];
}

export interface ChapbookCover {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

export interface ChapbookPoem {
  title: string;
  /** Each stanza's lines, indentation kept (common/stanza.ts stanzaLines). */
  stanzas: string[][];
  /** The reading, with where each stanza begins, when the chapbook carries readings. */
  reading: ChapbookReading | null;
}

export interface ChapbookReading {
  bytes: Uint8Array;
  mediaType: "audio/mpeg" | "audio/mp4";
  extension: "mp3" | "m4a";
  timings: number[];
  duration: number;
}
