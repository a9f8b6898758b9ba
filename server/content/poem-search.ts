import { and, desc, type SQL, sql } from "drizzle-orm";
import { stanzaLines } from "../../common/stanza.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { poems, poemTags } from "../db/schema.ts";
import { publishedPoems } from "../db/visibility.ts";
import { withTags } from "./poem-rows.ts";
import type { PoemMatch, SnippetPart } from "./search.ts";

/*
 * The poems a search finds, each with the line that best holds the reader's words, those words
 * marked (search.ts; docs/decisions/020-search.md).
 */

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
 * Which of `words` the database reads as one of the query's words (the same stemming and
 * accent folding), so the snippet marks "burning" for "burn" and "Café" for "cafe".
 */
async function findMatchingWords(
  { db }: Pick<ServiceDeps, "db">,
  words: Set<string>,
  text: string,
): Promise<Set<string>> {
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
async function findPoemRows(
  { db, now }: Pick<ServiceDeps, "db" | "now">,
  text: string,
  limit: number,
) {
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

/** Published poems holding the reader's words (title matches first), each with its snippet. */
export async function findPoems(
  deps: Pick<ServiceDeps, "db" | "now">,
  text: string,
  limit: number,
): Promise<PoemMatch[]> {
  const rows = await findPoemRows(deps, text, limit);
  const withTagRows = await withTags(deps.db, rows, poemTags);
  const words = new Set(
    rows.flatMap((row) =>
      row.stanzas.flatMap((stanza) =>
        [...stanza.matchAll(WORD)].map((match) => match[0].toLowerCase()),
      ),
    ),
  );
  const matching = await findMatchingWords(deps, words, text);
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
