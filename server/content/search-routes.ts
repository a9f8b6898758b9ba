import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AppEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { SearchService, SnippetPart } from "./search.ts";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** The matching line as HTML: the poem's own text escaped, each matching word in <mark>. */
function snippetHtml(parts: SnippetPart[]): string {
  return parts
    .map(({ text, isMatch }) => {
      const escaped = text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? "");
      return isMatch ? `<mark>${escaped}</mark>` : escaped;
    })
    .join("");
}

/**
 * GET /api/search?q=&limit=. Not declared shared: every query is its own answer, and the page
 * cache keeps only what a route declares (decision 008), so none of them fills it.
 */
export function searchRoutes(services: { search: SearchService }) {
  return routesAt<AppEnv>(mounts.api).call(endpoints.search, async ({ query }) => {
    const results = await services.search.find(query.q, query.limit);
    return {
      poems: results.poems.map(({ slug, title, stanzaIndex, snippet }) => ({
        slug,
        title,
        stanzaIndex,
        snippet: snippetHtml(snippet),
      })),
      embers: results.embers,
      guestVoices: results.guestVoices,
    };
  }).router;
}
