import type { SiteInfo } from "../../common/load-context.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { pageMeta } from "../lib/meta.ts";
import { NotFoundState } from "./not-found-state.tsx";

const TITLE = "Poem not found";
const TEXT = "This poem might have been moved or doesn't exist.";

/**
 * The poem page's not-found state, also shown for a share link to an unknown poem
 * (docs/product/reading.md, Poem page).
 */
export function PoemNotFound() {
  return (
    <NotFoundState title={TITLE} text={TEXT} backTo={pages.poetry} backLabel="Back to Poetry" />
  );
}

export function poemNotFoundMeta(site: SiteInfo, slug: string | undefined) {
  return pageMeta(site, {
    title: TITLE,
    description: TEXT,
    path: paths.poem(slug ?? ""),
    isIndexable: false,
  });
}
