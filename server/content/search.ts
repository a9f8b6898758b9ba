import { and, desc, type SQL, sql } from "drizzle-orm";
import type { TagRef } from "../../common/schemas/poems.ts";
import type { SearchAnswer } from "../../common/schemas/search.ts";
import { stanzaLines } from "../../common/stanza.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { embers, guestVoices, poems, poemTags } from "../db/schema.ts";
import { publishedPoems, shownEmbers } from "../db/visibility.ts";
import { withTags } from "./poems.ts";

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

/** Words as the snippet marks them: letters (with their accents) and digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** A matching line longer than this is cut around its first match. */
const SNIPPET_MAX_LENGTH = 160;
const SNIPPET_LEAD = 60;

/** The line's words and the text between them, matching words marked. */
function markLine(line: string, isMatchingWord: (word: string) => boolean): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let last = 0;
  for (const match of line.matchAll(WORD)) {
    if (!isMatchingWord(match[0])) continue;
    if (match.index > last) parts.push({ text: line.slice(last, match.index), isMatch: false });
    parts.push({ text: match[0], isMatch: true });
    last = match.index + match[0].length;
  }
  if (last < line.length) parts.push({ text: line.slice(last), isMatch: false });
  return parts;
}

/** A long line cut to a window that starts a little before its first match, with '…'. */
function shorten(line: string, isMatchingWord: (word: string) => boolean): string {
  if (line.length <= SNIPPET_MAX_LENGTH) return line;
  const first = [...line.matchAll(WORD)].find((match) => isMatchingWord(match[0]))?.index ?? 0;
  const wordStart = line.lastIndexOf(" ", Math.max(first - SNIPPET_LEAD, 0)) + 1;
  const start = first - SNIPPET_LEAD > 0 ? wordStart : 0;
  const end = start + SNIPPET_MAX_LENGTH;
  return `${start > 0 ? "…" : ""}${line.slice(start, end).trim()}${end < line.length ? "…" : ""}`;
}

/**
 * The line that holds the most of the query's words (the first of equals), and its stanza; a
 * poem found by its title alone shows its first line.
 */
function bestLine(stanzas: string[], isMatchingWord: (word: string) => boolean) {
  let best = { stanzaIndex: 0, line: stanzaLines(stanzas[0] ?? "")[0] ?? "", score: 0 };
  stanzas.forEach((stanza, stanzaIndex) => {
    for (const line of stanzaLines(stanza)) {
      const matched = new Set(
        [...line.matchAll(WORD)]
          .map((match) => match[0].toLowerCase())
          .filter((word) => isMatchingWord(word)),
      );
      if (matched.size > best.score) best = { stanzaIndex, line, score: matched.size };
    }
  });
  return best;
}

/**
 * Search over published poems, shown embers and the guest voices (docs/decisions/020-search.md):
 * PostgreSQL full-text search with stemming and accents folded, through the stored documents'
 * GIN indexes; the reader's words become a query only through websearch_to_tsquery.
 */
export function createSearchService({ db, config, now }: ServiceDeps) {
  /**
   * Which of `words` the database reads as one of the query's words (the same stemming and
   * accent folding), so the snippet marks "burning" for "burn" and "Café" for "cafe".
   */
  async function findMatchingWords(words: Set<string>, text: string): Promise<Set<string>> {
    if (words.size === 0) return new Set();
    const rows = await db
      .select({ word: sql<string>`w.word` })
      .from(sql`jsonb_array_elements_text(${JSON.stringify([...words])}::jsonb) as w(word)`)
      .where(
        sql`tsvector_to_array(public.search_document(w.word))
            && tsvector_to_array(public.search_document(${text}))`,
      );
    return new Set(rows.map((row) => row.word));
  }

  /**
   * Published poems holding the words: those whose title holds them first, then the others, each
   * newest first. Two queries, each through its own index, so a word in thousands of poems costs
   * no more than a rare one: neither ranks every match.
   */
  async function findPoemRows(text: string, limit: number) {
    const query = sql`public.search_query(${text})`;
    const isTitleMatch = sql`${poems.titleSearchVector} @@ ${query}`;
    const find = (condition: SQL, count: number) =>
      db
        .select({ id: poems.id, slug: poems.slug, title: poems.title, stanzas: poems.stanzas })
        .from(poems)
        .where(and(condition, publishedPoems(now())))
        .orderBy(desc(poems.publishAt), desc(poems.id))
        .limit(count);
    const titleMatches = await find(isTitleMatch, limit);
    if (titleMatches.length === limit) return titleMatches;
    const stanzaMatches = await find(
      sql`${poems.searchVector} @@ ${query} and not (${isTitleMatch})`,
      limit - titleMatches.length,
    );
    return [...titleMatches, ...stanzaMatches];
  }

  async function findPoems(text: string, limit: number): Promise<PoemMatch[]> {
    const rows = await findPoemRows(text, limit);
    const withTagRows = await withTags(db, rows, poemTags);
    const words = new Set(
      rows.flatMap((row) =>
        row.stanzas.flatMap((stanza) =>
          [...stanza.matchAll(WORD)].map((match) => match[0].toLowerCase()),
        ),
      ),
    );
    const matching = await findMatchingWords(words, text);
    const isMatchingWord = (word: string) => matching.has(word.toLowerCase());
    return withTagRows.map(({ slug, title, stanzas, tags }) => {
      const { stanzaIndex, line } = bestLine(stanzas, isMatchingWord);
      return {
        slug,
        title,
        stanzaIndex,
        snippet: markLine(shorten(line, isMatchingWord), isMatchingWord),
        tags,
      };
    });
  }

  /** Embers shown to readers holding the words, newest first. */
  async function findEmbers(text: string, limit: number): Promise<EmberMatch[]> {
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
  async function findGuestVoices(text: string, limit: number): Promise<GuestVoiceMatch[]> {
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

  return {
    /**
     * Poems (title matches first), embers and guest voices holding the reader's words; nothing
     * is searched for blank words.
     */
    async find(text: string, limit: number): Promise<SearchResults> {
      if (text.trim() === "") return { poems: [], embers: [], guestVoices: [] };
      const [poemMatches, emberMatches, guestVoices] = await Promise.all([
        findPoems(text, limit),
        findEmbers(text, limit),
        findGuestVoices(text, limit),
      ]);
      return { poems: poemMatches, embers: emberMatches, guestVoices };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
