import { useEffect, useState } from "react";
import { Link } from "react-router";
import { POETRY_PAGE_SIZE } from "../../common/constants.ts";
import * as pages from "../../common/pages.ts";
import { withQuery } from "../../common/path-builder.ts";
import { PoemCard, type PoemCardData, toPoemCard } from "../components/poem-card.tsx";
import { callApi } from "../lib/api.ts";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/poetry";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const tag = new URL(request.url).searchParams.get("tag")?.trim() || null;
  // One card more than a page says whether there are more to load.
  const [firstPage, tags, settings] = await Promise.all([
    services.poems.listPoems({ tag: tag ?? undefined, limit: POETRY_PAGE_SIZE + 1 }),
    services.poems.listTags(),
    services.siteSettings.view(),
  ]);
  return {
    // The four pillars: the poet's chosen tags, or the original names until they choose.
    pillars: settings.filterTags,
    poems: firstPage.slice(0, POETRY_PAGE_SIZE).map(toPoemCard),
    hasMore: firstPage.length > POETRY_PAGE_SIZE,
    tags,
    tag,
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const tag = loaderData?.tag;
  return pageMeta(siteFromMatches(matches), {
    title: tag ? `Poetry: ${tag}` : "Poetry",
    description: tag
      ? `Poems on ${tag}, read one stanza at a time.`
      : "Every poem in the collection, read one stanza at a time.",
    path: tag ? withQuery(pages.poetry, { tag }) : pages.poetry,
  });
}

/** Selecting the active filter again clears it (docs/product/reading.md, Poem list). */
function filterHref(tag: string, active: string | null) {
  return active?.toLowerCase() === tag.toLowerCase()
    ? pages.poetry
    : withQuery(pages.poetry, { tag });
}

const chipClass = (isActive: boolean) =>
  `rounded-full border px-4 py-1.5 text-sm ${
    isActive
      ? "border-ember-700 bg-ember-700 text-white"
      : "border-stone-300 bg-white text-stone-800 hover:border-ember-700"
  }`;

/**
 * The first page of cards is server-rendered; 'Show more poems' loads the next page, so a
 * collection of thousands stays a page a phone can open.
 */
function usePoemPages(firstPage: PoemCardData[], hasMoreAtFirst: boolean, tag: string | null) {
  const [poems, setPoems] = useState(firstPage);
  const [hasMore, setHasMore] = useState(hasMoreAtFirst);
  const [isLoading, setLoading] = useState(false);
  const [isFailed, setFailed] = useState(false);
  useEffect(() => {
    setPoems(firstPage);
    setHasMore(hasMoreAtFirst);
  }, [firstPage, hasMoreAtFirst]);

  async function loadMore() {
    setLoading(true);
    setFailed(false);
    const query = {
      offset: String(poems.length),
      limit: String(POETRY_PAGE_SIZE + 1),
      ...(tag ? { tag } : {}),
    };
    try {
      const page = await callApi("listPoems", { query });
      setPoems((current) => [...current, ...page.slice(0, POETRY_PAGE_SIZE).map(toPoemCard)]);
      setHasMore(page.length > POETRY_PAGE_SIZE);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }
  return { poems, hasMore, isLoading, isFailed, loadMore };
}

export default function Poetry({ loaderData }: Route.ComponentProps) {
  const { tags, tag, pillars } = loaderData;
  const { poems, hasMore, isLoading, isFailed, loadMore } = usePoemPages(
    loaderData.poems,
    loaderData.hasMore,
    tag,
  );
  const isActive = (name: string) => tag?.toLowerCase() === name.toLowerCase();
  return (
    <section className="flex flex-col gap-6">
      <h1 className="font-serif text-4xl text-stone-900">Poetry</h1>
      <nav aria-label="Pillars" className="flex flex-wrap gap-2">
        {pillars.map((pillar) => (
          <Link
            key={pillar}
            to={filterHref(pillar, tag)}
            aria-current={isActive(pillar) ? "true" : undefined}
            className={chipClass(isActive(pillar))}
            preventScrollReset
          >
            {pillar}
          </Link>
        ))}
      </nav>
      <details className="rounded-lg border border-stone-200 bg-white px-4 py-3">
        <summary className="cursor-pointer font-medium text-stone-800">Seasonal Themes</summary>
        <nav aria-label="Themes" className="mt-3 flex flex-wrap gap-2">
          <Link
            to={pages.poetry}
            aria-current={tag ? undefined : "true"}
            className={chipClass(!tag)}
            preventScrollReset
          >
            All
          </Link>
          {tags.map((item) => (
            <Link
              key={item.id}
              to={filterHref(item.name, tag)}
              aria-current={isActive(item.name) ? "true" : undefined}
              className={chipClass(isActive(item.name))}
              preventScrollReset
            >
              {item.name}
            </Link>
          ))}
        </nav>
      </details>
      {poems.length === 0 ? (
        <div className="py-16 text-center">
          <p className="font-serif text-2xl text-stone-900">
            {tag ? `No poems found for "${tag}"` : "Nothing here yet"}
          </p>
          <p className="mt-2 text-stone-700">Come back tomorrow for new poetry.</p>
        </div>
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {poems.map((poem, position) => (
              <PoemCard key={poem.id} poem={poem} isFirst={position === 0} />
            ))}
          </ul>
          <p className="sr-only" aria-live="polite">
            {poems.length > POETRY_PAGE_SIZE ? `${poems.length} poems shown` : ""}
          </p>
          {isFailed && (
            <p role="alert" className="text-center text-stone-700">
              More poems could not be loaded. Please try again.
            </p>
          )}
          {hasMore && (
            <button
              type="button"
              onClick={loadMore}
              disabled={isLoading}
              className="mx-auto rounded-full border border-ember-700 px-6 py-2.5 font-medium text-ember-800 hover:bg-ember-50 disabled:opacity-60"
            >
              {isLoading ? "Loading..." : "Show more poems"}
            </button>
          )}
        </>
      )}
    </section>
  );
}
