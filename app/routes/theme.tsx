import { data, Link } from "react-router";
import { STANZA_LINE_MARKER, THEME_CARD_LINES, THEME_CARD_TAGS } from "../../common/constants.ts";
import { formatLongDay } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { type StanzaLike, stanzaLines } from "../../common/stanza.ts";
import { NotFoundState } from "../components/not-found-state.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { orNotFound } from "../lib/not-found.ts";
import type { Route } from "./+types/theme";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const theme = await orNotFound(services.poems.getTheme(params.slug));
  return data({ theme: theme ?? null }, { status: theme ? 200 : 404 });
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  const theme = loaderData?.theme;
  return pageMeta(siteFromMatches(matches), {
    title: theme ? theme.tag.name : "Theme Not Found",
    description: theme
      ? `Poems and daily embers on ${theme.tag.name}.`
      : "This theme doesn't exist or has no content yet.",
    path: paths.theme(params.slug),
  });
}

function TagList({ tags }: { tags: { id: number; name: string }[] }) {
  if (tags.length === 0) return null;
  return (
    <p className="flex flex-wrap gap-1 text-xs">
      {tags.slice(0, THEME_CARD_TAGS).map((tag) => (
        <span key={tag.id} className="rounded-full bg-ember-50 px-2 py-0.5 text-ember-900">
          {tag.name}
        </span>
      ))}
    </p>
  );
}

export default function ThemePage({ loaderData }: Route.ComponentProps) {
  const { theme } = loaderData;
  if (!theme) {
    return (
      <NotFoundState
        title="Theme Not Found"
        text="This theme doesn't exist or has no content yet."
        backTo="/"
        backLabel="Return Home"
      />
    );
  }
  const isEmpty = theme.poems.length === 0 && theme.embers.length === 0;
  return (
    <section className="flex flex-col gap-10">
      <h1 className="font-serif text-4xl text-stone-900">{theme.tag.name}</h1>
      {isEmpty ? (
        <div className="py-12 text-center">
          <p className="font-serif text-2xl">Growing in Silence</p>
          <p className="mt-2 text-stone-700">Nothing has been written under this theme yet.</p>
        </div>
      ) : (
        <>
          <section aria-labelledby="theme-poetry" className="flex flex-col gap-4">
            <h2 id="theme-poetry" className="flex items-center gap-3 font-serif text-2xl">
              Poetry
              <span className="rounded-full bg-stone-200 px-2.5 py-0.5 font-sans text-sm text-stone-800">
                {theme.poems.length}
              </span>
            </h2>
            <ul className="grid gap-4 md:grid-cols-2">
              {theme.poems.map((poem) => (
                <li key={poem.id}>
                  <Link
                    to={paths.poem(poem.slug)}
                    className="flex h-full flex-col gap-2 rounded-xl border border-stone-200 bg-white p-5 hover:shadow-md"
                  >
                    <h3 className="font-serif text-xl">{poem.title}</h3>
                    <p className="text-stone-700">
                      {stanzaLines((poem.stanzas as StanzaLike[])[0] ?? "")
                        .slice(0, THEME_CARD_LINES)
                        .join(STANZA_LINE_MARKER)}
                    </p>
                    <TagList tags={poem.tags} />
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="theme-embers" className="flex flex-col gap-4">
            <h2 id="theme-embers" className="font-serif text-2xl">
              Daily Embers
            </h2>
            <ul className="grid gap-4 md:grid-cols-2">
              {theme.embers.map((ember) => (
                <li key={ember.id}>
                  <Link
                    to={pages.ember}
                    className="flex h-full flex-col gap-2 rounded-xl border border-stone-200 bg-white p-5 hover:shadow-md"
                  >
                    <p className="flex items-center gap-2 text-sm text-stone-600">
                      {formatLongDay(ember.date)}
                      {ember.isFeatured && (
                        <span className="rounded-full bg-ember-700 px-2 py-0.5 text-xs text-white">
                          Featured
                        </span>
                      )}
                    </p>
                    <p className="font-serif text-lg">{ember.text}</p>
                    <TagList tags={ember.tags} />
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </section>
  );
}
