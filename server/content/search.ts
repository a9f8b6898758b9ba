import { and, desc, sql } from "drizzle-orm";
import type { TagRef } from "../../common/schemas/poems.ts";
import type { SearchAnswer } from "../../common/schemas/search.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { embers, guestVoices } from "../db/schema.ts";
import { shownEmbers } from "../db/visibility.ts";
import { findPoems } from "./poem-search.ts";

/** A piece of a poem's matching line: a matching word, or the text between matches. */
export interface SnippetPart {
  text: string;
  isMatch: boolean;
}

export interface PoemMatch {
  slug: string;
  title: string;
  /** The stanza holding the matching line, 0-based as the stanza viewer's #s-{index}. */
  stanzaIndex: number;
  snippet: SnippetPart[];
  tags: TagRef[];
}

export type EmberMatch = SearchAnswer["embers"][number];
export type GuestVoiceMatch = SearchAnswer["guestVoices"][number];

export interface SearchResults {
  poems: PoemMatch[];
  embers: EmberMatch[];
  guestVoices: GuestVoiceMatch[];
}

/** Embers shown to readers holding the words, newest first. */
async function findEmbers(
  { db, config, now }: Pick<ServiceDeps, "db" | "config" | "now">,
  text: string,
  limit: number,
): Promise<EmberMatch[]> {
  const query = sql`public.search_query(${text})`;
  return db
    .select({ id: embers.id, date: embers.date, text: embers.text })
    .from(embers)
    .where(and(sql`${embers.searchVector} @@ ${query}`, shownEmbers(now(), config.siteTimezone)))
    .orderBy(desc(embers.date))
    .limit(limit);
}

/**
 * The shown guest voices, in the poet's order, found by their name, their poem's title and
 * their poem. They are few, so their document is built at search time (no stored column), by
 * the same search functions as poems' (stemming, accents, "or", "-word", quoted phrases).
 */
async function findGuestVoices(
  { db }: Pick<ServiceDeps, "db">,
  text: string,
  limit: number,
): Promise<GuestVoiceMatch[]> {
  const document = sql`concat_ws(E'\n', ${guestVoices.name}, ${guestVoices.title},
      (select string_agg(paragraph, E'\n') from jsonb_array_elements_text(${guestVoices.body}) as paragraph))`;
  return db
    .select({ slug: guestVoices.slug, name: guestVoices.name, title: guestVoices.title })
    .from(guestVoices)
    .where(
      and(
        sql`not ${guestVoices.hidden}`,
        sql`public.search_document(${document}) @@ public.search_query(${text})`,
      ),
    )
    .orderBy(guestVoices.position, guestVoices.id)
    .limit(limit);
}

/**
 * Search over published poems, shown embers and the guest voices (docs/decisions/020-search.md):
 * PostgreSQL full-text search with stemming and accents folded, through the stored documents'
 * GIN indexes; the reader's words become a query only through websearch_to_tsquery.
 */
export function createSearchService(deps: ServiceDeps) {
  return {
    /**
     * Poems (title matches first), embers and guest voices holding the reader's words; nothing
     * is searched for blank words.
     */
    async find(text: string, limit: number): Promise<SearchResults> {
      if (text.trim() === "") return { poems: [], embers: [], guestVoices: [] };
      const [poemMatches, emberMatches, guestVoices] = await Promise.all([
        findPoems(deps, text, limit),
        findEmbers(deps, text, limit),
        findGuestVoices(deps, text, limit),
      ]);
      return { poems: poemMatches, embers: emberMatches, guestVoices };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
