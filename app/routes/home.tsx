import { Link } from "react-router";
import { HOME_GUEST_VOICES, type HOME_THEMES } from "../../common/constants.ts";
import { formatLongDay } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { tagSlug } from "../../common/slug.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { GuestVoiceAvatar } from "../components/guest-voice-avatar.tsx";
import { BookOpen, Feather, Flame } from "../components/icons.ts";
import { VerseLines } from "../components/verse.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { orNotFound } from "../lib/not-found.ts";
import type { Route } from "./+types/home";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const settings = await services.siteSettings.view();
  const [featured, voices, shown] = await Promise.all([
    orNotFound(services.embers.getFeaturedEmber()),
    services.guestVoices.listShown(),
    services.poems.getHomePoem(settings.pinnedPoemId),
  ]);
  return {
    guestVoices: voices
      .slice(0, HOME_GUEST_VOICES)
      .map(({ slug, name, title, avatarUrl }) => ({ slug, name, title, avatarUrl })),
    featured: featured
      ? { text: featured.text, date: featured.date, featuredAt: featured.featuredAt }
      : null,
    tagline: settings.tagline,
    themes: settings.homeThemes.map((name) => ({ name, blurb: themeBlurbs[name] })),
    poem: shown
      ? {
          slug: shown.poem.slug,
          title: shown.poem.title,
          stanza: stanzaLines(shown.poem.stanzas[0] ?? ""),
          isPinned: shown.isPinned,
        }
      : null,
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const poem = loaderData?.poem;
  return pageMeta(site, {
    title: "Home",
    // The poet's own line, as link previews and search results show it.
    description: loaderData?.tagline ?? site.name,
    path: "/",
    // The poem home shows first, its first stanza as a card: the site shows itself by its verse.
    image: poem ? paths.stanzaCard(poem.slug, 0) : undefined,
  });
}

/** The original three themes' lines; a theme the poet chooses shows its name alone. */
const themeBlurbs: Record<string, string | undefined> = {
  Belonging: "Tables, rooms and the people who set a plate for us.",
  Becoming: "Slow change, and the courage of weather.",
  Sacred: "The holy hiding in ordinary Tuesdays.",
} satisfies Record<(typeof HOME_THEMES)[number], string>;

const sections = [
  { to: pages.poetry, title: "Poetry", text: "Read poems one stanza at a time.", Icon: Feather },
  { to: pages.ember, title: "Daily Ember", text: "A short text for today.", Icon: Flame },
  { to: pages.books, title: "Books", text: "Five books, five themes.", Icon: BookOpen },
];

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const site = siteFromMatches(matches);
  const { featured, tagline, themes, guestVoices, poem } = loaderData;
  return (
    <div className="flex flex-col gap-16">
      <section className="pt-4 text-center md:py-10">
        <h1 className="font-serif text-4xl text-stone-900 md:text-6xl">{site.name}</h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-stone-700">{tagline}</p>
        <Link
          to={pages.poetry}
          className="mt-8 inline-block rounded-full bg-ember-700 px-6 py-3 font-medium text-white hover:bg-ember-800"
        >
          Enter the Collection
        </Link>
      </section>

      {poem && (
        <section
          aria-labelledby="home-poem"
          className="mx-auto -mt-8 w-full max-w-2xl rounded-2xl border border-stone-200 bg-white p-6 md:mt-0"
        >
          <h2 id="home-poem" className="text-sm uppercase tracking-widest text-ember-800">
            {poem.isPinned ? "A poem to begin with" : "Newest poem"}
          </h2>
          <p className="mt-2 font-serif text-2xl text-stone-900">{poem.title}</p>
          <p className="mt-3 font-serif text-lg leading-relaxed text-stone-800">
            <VerseLines lines={poem.stanza} />
          </p>
          <Link
            to={paths.poem(poem.slug)}
            className="mt-4 inline-block text-ember-700 underline underline-offset-4"
          >
            Read “{poem.title}”
          </Link>
        </section>
      )}

      {featured && (
        <section
          aria-labelledby="ember-of-the-week"
          className="mx-auto w-full max-w-2xl rounded-2xl bg-ember-900 p-8 text-center text-white"
        >
          <h2 id="ember-of-the-week" className="text-sm uppercase tracking-widest text-ember-100">
            Ember of the Week
          </h2>
          <blockquote className="mt-4 font-serif text-2xl leading-relaxed">
            “{featured.text}”
          </blockquote>
          <p className="mt-4 text-sm text-ember-100">
            {formatLongDay(featured.featuredAt ?? featured.date)}
          </p>
        </section>
      )}

      <section aria-labelledby="current-themes" className="flex flex-col gap-4">
        <h2 id="current-themes" className="font-serif text-3xl">
          Current Themes
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {themes.map((theme) => (
            <li key={theme.name}>
              <Link
                to={paths.theme(tagSlug(theme.name))}
                className="flex h-full flex-col gap-2 rounded-xl border border-stone-200 bg-white p-6 hover:shadow-md"
              >
                <span className="font-serif text-2xl text-stone-900">{theme.name}</span>
                {theme.blurb && <span className="text-stone-700">{theme.blurb}</span>}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-label="Explore" className="grid gap-4 md:grid-cols-3">
        {sections.map(({ to, title, text, Icon }) => (
          <Link
            key={to}
            to={to}
            className="flex flex-col gap-2 rounded-xl bg-ember-50 p-6 hover:bg-ember-100"
          >
            <Icon aria-hidden="true" className="h-6 w-6 text-ember-700" />
            <span className="font-serif text-2xl text-stone-900">{title}</span>
            <span className="text-stone-700">{text}</span>
          </Link>
        ))}
      </section>

      <section aria-labelledby="guest-voices" className="flex flex-col gap-4">
        <div className="flex items-baseline justify-between">
          <h2 id="guest-voices" className="font-serif text-3xl">
            Guest Voices
          </h2>
          <Link to={pages.guestVoices} className="text-ember-800 hover:underline">
            All guest voices
          </Link>
        </div>
        <ul className="grid gap-4 md:grid-cols-3">
          {guestVoices.map((voice) => (
            <li key={voice.slug}>
              <Link
                to={paths.guestVoice(voice.slug)}
                className="flex h-full items-center gap-3 rounded-xl border border-stone-200 bg-white p-5 hover:shadow-md"
              >
                <GuestVoiceAvatar voice={voice} size="small" />
                <span className="flex flex-col">
                  <span className="font-serif text-lg text-stone-900">{voice.name}</span>
                  <span className="text-sm text-stone-600">{voice.title}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
