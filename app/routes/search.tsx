import { Link } from "react-router";
import { SEARCH_RESULTS_PER_GROUP } from "../../common/constants.ts";
import { formatLongDay } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import { withQuery } from "../../common/path-builder.ts";
import * as paths from "../../common/paths.ts";
import { searchQueryFromPage } from "../../common/schemas/search.ts";
import { appContext } from "../lib/app-context.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/search";

// No `handle`: each query is its own page, so the page cache keeps none of them (decision 020).

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const q = searchQueryFromPage(new URL(request.url).searchParams.get("q"));
  if (q === "") return { q, results: null };
  return { q, results: await services.search.find(q, SEARCH_RESULTS_PER_GROUP) };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const q = loaderData?.q;
  return pageMeta(siteFromMatches(matches), {
    title: "Search",
    description: q
      ? `Poems, embers and guest voices holding "${q}".`
      : "Search the poems, embers and guest voices.",
    path: q ? withQuery(pages.search, { q: q }) : pages.search,
    // A page per query is not something for search engines to keep.
    isIndexable: false,
  });
}

type Results = NonNullable<Route.ComponentProps["loaderData"]["results"]>;

function ResultGroup({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <h2 id={id} className="font-serif text-2xl text-stone-900">
        {title}
      </h2>
      <ul className="flex flex-col gap-3">{children}</ul>
    </section>
  );
}

const cardClass =
  "block rounded-xl border border-stone-200 bg-white p-5 hover:border-ember-700 hover:shadow-md";

function PoemResults({ poems }: { poems: Results["poems"] }) {
  return (
    <ResultGroup id="search-poems" title="Poems">
      {poems.map((poem) => (
        <li key={poem.slug}>
          {/* The stanza index is 0-based, as the stanza viewer reads #s-{index}. */}
          <Link to={paths.stanza(poem.slug, poem.stanzaIndex)} className={cardClass}>
            <h3 className="font-serif text-xl text-stone-900">{poem.title}</h3>
            <p className="mt-2 font-serif text-lg text-stone-800">
              {poem.snippet.map((part, index) =>
                part.isMatch ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: parts are fixed for a result
                  <mark key={index} className="rounded bg-ember-100 px-0.5 text-stone-900">
                    {part.text}
                  </mark>
                ) : (
                  part.text
                ),
              )}
            </p>
            {poem.tags.length > 0 && (
              <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
                {poem.tags.map((tag) => (
                  <li
                    key={tag.id}
                    className="rounded-full bg-stone-100 px-3 py-0.5 text-sm text-stone-700"
                  >
                    {tag.name}
                  </li>
                ))}
              </ul>
            )}
          </Link>
        </li>
      ))}
    </ResultGroup>
  );
}

function EmberResults({ embers }: { embers: Results["embers"] }) {
  return (
    <ResultGroup id="search-embers" title="Embers">
      {embers.map((ember) => (
        <li key={ember.id} className="rounded-xl border border-stone-200 bg-white p-5">
          <p className="text-sm text-stone-600">{formatLongDay(ember.date)}</p>
          <p className="mt-1 font-serif text-lg text-stone-800">{ember.text}</p>
        </li>
      ))}
    </ResultGroup>
  );
}

function GuestVoiceResults({ guestVoices }: { guestVoices: Results["guestVoices"] }) {
  return (
    <ResultGroup id="search-guest-voices" title="Guest Voices">
      {guestVoices.map((voice) => (
        <li key={voice.slug}>
          <Link to={paths.guestVoice(voice.slug)} className={cardClass}>
            <h3 className="font-serif text-xl text-stone-900">{voice.name}</h3>
            <p className="mt-1 text-stone-700">{voice.title}</p>
          </Link>
        </li>
      ))}
    </ResultGroup>
  );
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, results } = loaderData;
  const hasResults =
    results !== null &&
    results.poems.length + results.embers.length + results.guestVoices.length > 0;
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-8">
      <h1 className="font-serif text-4xl text-stone-900">Search</h1>
      {results === null && (
        <p className="text-stone-700">
          Type a word or a line in the search field to find it in the poems, the embers and the
          guest voices.
        </p>
      )}
      {results !== null && !hasResults && (
        <p className="text-lg text-stone-700">No results for "{q}"</p>
      )}
      {hasResults && (
        <>
          <p className="text-stone-700">Results for "{q}"</p>
          {results.poems.length > 0 && <PoemResults poems={results.poems} />}
          {results.embers.length > 0 && <EmberResults embers={results.embers} />}
          {results.guestVoices.length > 0 && (
            <GuestVoiceResults guestVoices={results.guestVoices} />
          )}
        </>
      )}
    </section>
  );
}
