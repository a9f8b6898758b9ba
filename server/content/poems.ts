import type { ServiceDeps } from "../core/deps.ts";
import { poemLists } from "./poem-lists.ts";
import { poemPage } from "./poem-page.ts";
import { themeReads } from "./themes.ts";

// The reading service's module is where other features take a poem's columns and tags from.
export { poemColumns, withTags } from "./poem-rows.ts";

/** Reading: poems, tags and themes (docs/product/reading.md; docs/product/api.md, Reading). */
export function createPoemService(deps: ServiceDeps) {
  return { ...poemLists(deps), ...poemPage(deps), ...themeReads(deps) };
}

export type PoemService = ReturnType<typeof createPoemService>;
