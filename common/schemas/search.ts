import { z } from "zod/mini";
import {
  SEARCH_MAX_LIMIT,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_RESULTS_PER_GROUP,
} from "../constants.ts";
import { dateTime } from "./answer.ts";
import { digitsInText } from "./input.ts";

export const SEARCH_QUERY_TOO_LONG = `q must be ${SEARCH_QUERY_MAX_LENGTH} characters or less`;
export const SEARCH_LIMIT_INVALID = `limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}`;

/** Characters as Unicode counts them: an emoji is one, not the two UTF-16 units it takes. */
const characterCount = (text: string) => [...text].length;

/**
 * GET /api/search: `q` is the reader's words, trimmed (absent or blank: nothing is searched);
 * `limit` is how many results each group may hold.
 */
export const searchInput = z.object({
  q: z._default(
    z.string().check(
      z.trim(),
      z.refine((q) => characterCount(q) <= SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_TOO_LONG),
    ),
    "",
  ),
  limit: z._default(
    digitsInText(2, SEARCH_LIMIT_INVALID).check(
      z.refine((limit) => limit >= 1 && limit <= SEARCH_MAX_LIMIT, SEARCH_LIMIT_INVALID),
    ),
    SEARCH_RESULTS_PER_GROUP,
  ),
});
export type SearchInput = z.infer<typeof searchInput>;

/**
 * GET /api/search's answer: poems (the matching line as HTML, the reader's words in <mark>, the
 * poem's own text escaped; the stanza it is in), embers, guest voices.
 */
export const searchAnswer = z.object({
  poems: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      stanzaIndex: z.int(),
      snippet: z.string(),
    }),
  ),
  embers: z.array(z.object({ id: z.int(), date: dateTime, text: z.string() })),
  guestVoices: z.array(z.object({ slug: z.string(), name: z.string(), title: z.string() })),
});
export type SearchAnswer = z.output<typeof searchAnswer>;

/**
 * The search page's query from its address: forgiving where the API refuses, since a reader
 * may paste anything. Trimmed, cut to the first 200 characters, and without the characters no
 * database text can hold (NUL, a lone surrogate half).
 */
export function searchQueryFromPage(raw: string | null): string {
  const storable = (raw ?? "")
    .replace(/\p{Surrogate}/gu, "")
    .replaceAll("\u0000", "")
    .trim();
  return [...storable].slice(0, SEARCH_QUERY_MAX_LENGTH).join("").trim();
}
