import { data, Link } from "react-router";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { GuestVoiceAvatar } from "../components/guest-voice-avatar.tsx";
import { ArrowLeft } from "../components/icons.ts";
import { NotFoundState } from "../components/not-found-state.tsx";
import { Verse } from "../components/verse.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/guest-voice";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const voices = await services.guestVoices.listShown();
  const voice = voices.find((shown) => shown.slug === params.slug) ?? null;
  const others = voices.flatMap((other) =>
    other.slug === params.slug ? [] : [{ slug: other.slug, name: other.name }],
  );
  return data({ voice, others }, { status: voice ? 200 : 404 });
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  const voice = loaderData?.voice;
  return pageMeta(siteFromMatches(matches), {
    title: voice ? `${voice.title} by ${voice.name}` : "Guest Voice Not Found",
    description: voice ? voice.excerpt.join(" / ") : "This guest voice could not be found.",
    path: paths.guestVoice(params.slug),
    type: voice ? "article" : "website",
  });
}

export default function GuestVoicePage({ loaderData }: Route.ComponentProps) {
  const { voice, others } = loaderData;
  if (!voice) {
    return (
      <NotFoundState
        title="Guest Voice Not Found"
        backTo={pages.guestVoices}
        backLabel="All Guest Voices"
      />
    );
  }
  const firstName = voice.name.split(" ")[0];
  return (
    <article className="mx-auto flex max-w-2xl flex-col gap-6">
      <Link
        to={pages.guestVoices}
        className="inline-flex items-center gap-1 text-sm text-stone-700 hover:text-ember-700"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Guest Voices
      </Link>
      {voice.headerImageUrl && (
        <img
          src={voice.headerImageUrl}
          alt=""
          width={1200}
          height={300}
          className="h-40 w-full rounded-xl object-cover"
        />
      )}
      <header className="flex items-center gap-4">
        <GuestVoiceAvatar voice={voice} size="large" />
        <div className="flex flex-col gap-1">
          <h1 className="font-serif text-3xl text-stone-900">{voice.name}</h1>
          <a
            href={voice.socialUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-ember-800 hover:underline"
          >
            {voice.handle}
          </a>
        </div>
      </header>
      <p className="text-stone-700">{voice.bio}</p>
      <a
        href={voice.socialUrl}
        target="_blank"
        rel="noopener noreferrer"
        className="self-start rounded-full border border-ember-700 px-4 py-1.5 text-sm font-medium text-ember-800 hover:bg-ember-50"
      >
        Follow {firstName}
      </a>
      <section className="rounded-xl border border-stone-200 bg-white p-8">
        <h2 className="font-serif text-2xl text-stone-900">{voice.title}</h2>
        <Verse
          text={voice.body.join("\n\n")}
          className="mt-6 font-serif text-lg leading-relaxed text-stone-800"
        />
      </section>
      {voice.otherWorks.length > 0 && (
        <section>
          <h2 className="font-serif text-xl">Other Works</h2>
          <ul className="mt-2 list-inside list-disc text-stone-700">
            {voice.otherWorks.map((work) => (
              <li key={work.slug}>{work.title}</li>
            ))}
          </ul>
        </section>
      )}
      <nav
        aria-label="More guest voices"
        className="flex flex-wrap gap-3 border-t border-stone-200 pt-6 text-sm"
      >
        {others.map((other) => (
          <Link
            key={other.slug}
            to={paths.guestVoice(other.slug)}
            className="text-ember-800 hover:underline"
          >
            {other.name}
          </Link>
        ))}
        <Link to={pages.guestVoices} className="text-ember-800 hover:underline">
          All Guest Voices
        </Link>
        <Link to={pages.contribute} className="text-ember-800 hover:underline">
          Share your ember
        </Link>
      </nav>
    </article>
  );
}
