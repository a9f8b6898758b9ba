/**
 * What the import parsers hand to the import job (docs/product/import.md, decision 051): one
 * normalised result, whatever platform the file came from.
 */

import { IMPORT_SOURCE_NAMES, type ImportSourceName } from "../../common/schemas/import.ts";

/** The platforms an export comes from: the one list the import form, the API and the CLI take. */
export type ImportSource = ImportSourceName;

export const IMPORT_SOURCES: readonly ImportSource[] = IMPORT_SOURCE_NAMES;

export interface ImportedPoem {
  /**
   * The site it came from, where the platform's own id is only unique on one site: a WordPress
   * site's wp:base_blog_url (else the channel's link) without its scheme, e.g.
   * "wpthemetestdata.wordpress.com". Empty where the id is global (Ghost, Substack, plain files).
   */
  site: string;
  /**
   * The item's own id as its platform identifies it across sites (WordPress's guid, Ghost's post
   * uuid, Substack's post_id, a plain file's path in the archive): with `site`, an import of the
   * same export twice is keyed by it, and two sites never merge.
   */
  sourceId: string;
  /** The id imports before per-site identity keyed it by (WordPress wp:post_id, Ghost post id), to recognise what they brought in. */
  legacyId: string | null;
  title: string;
  /** The source's slug, if it had one (the job makes it unique here). */
  slug: string | null;
  /** Each stanza in the stored form (common/stanza.ts stanzaFromLines): leading spaces of a line kept (indentation), line ends trimmed. */
  stanzas: string[];
  tags: string[];
  state: "published" | "draft" | "scheduled";
  /** The original publication date (published and scheduled), else null. */
  publishAt: Date | null;
  coverUrl: string | null;
  coverAlt: string | null;
  /** Paths this poem had on its old site: its own permalink (WordPress <link>, Ghost url), and the forms the platform also answers (WordPress /{yyyy}/{mm}/{dd}/{slug}/ and /?p={id}; Ghost /{slug}/; Substack /p/{slug}). */
  oldPaths: string[];
  /** Its recorded reading (a Substack podcast's audio, as its link: the import job copies it here when it copies files, decision 071), else null. */
  audioUrl: string | null;
  /** Chosen in the preview unless the poet leaves it out; a podcast episode with text starts unchosen. */
  chosen: boolean;
  /** What was dropped and why (a heading, an image, an embed), for the preview. */
  notes: string[];
}

export interface ImportedSubscriber {
  email: string;
  name: string | null;
  /** Receiving email in the source (Substack: email_disabled not true; Ghost: subscribed_to_emails true; not deleted or bounced). Only these may be imported, and only with the poet's confirmation of consent. */
  receivingEmail: boolean;
  subscribedAt: Date | null;
  /** Why it is not importable, when receivingEmail is false or the address is invalid. */
  skipReason: string | null;
}

export interface SkippedItem {
  sourceId: string;
  title: string;
  reason: string;
}

export interface ParsedImport {
  source: ImportSource;
  poems: ImportedPoem[];
  subscribers: ImportedSubscriber[];
  skipped: SkippedItem[];
}

/** A file the parsers refuse: names the file (and the entry inside an archive) and the line where it applies. The message is for the poet. */
export class ImportFileError extends Error {
  // Declared fields, not parameter properties: the server runs with erasable TypeScript only.
  readonly file: string;
  readonly line: number | null;

  constructor(message: string, file: string, line: number | null = null) {
    super(message);
    this.name = "ImportFileError";
    this.file = file;
    this.line = line;
  }
}
