import { Link } from "react-router";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { GuestVoiceAvatar } from "../components/guest-voice-avatar.tsx";
import { VerseLines } from "../components/verse.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/guest-voices";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  return { voices: await services.guestVoices.listShown() };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Guest Voices",
    description: "Poems by guest writers, curated monthly.",
    path: pages.guestVoices,
  });
}

export default function GuestVoices({ loaderData }: Route.ComponentProps) {
  return (
    <section className="flex flex-col gap-10">
      <h1 className="font-serif text-4xl text-stone-900">Guest Voices</h1>
      <ul className="grid gap-6 md:grid-cols-3">
        {loaderData.voices.map((voice) => (
          <li key={voice.slug}>
            <Link
              to={paths.guestVoice(voice.slug)}
              className="flex h-full flex-col gap-4 rounded-xl border border-stone-200 bg-white p-6 hover:shadow-md"
            >
              <div className="flex items-center gap-3">
                <GuestVoiceAvatar voice={voice} size="small" />
                <div>
                  <h2 className="font-serif text-xl text-stone-900">{voice.name}</h2>
                  <p className="text-sm text-stone-600">{voice.handle}</p>
                </div>
              </div>
              <p className="font-serif text-lg">{voice.title}</p>
              <p className="font-serif text-stone-700">
                <VerseLines lines={voice.excerpt} />
              </p>
            </Link>
          </li>
        ))}
      </ul>
      <aside className="rounded-xl bg-ember-900 p-8 text-center text-white">
        <h2 className="font-serif text-3xl">Share your ember</h2>
        <p className="mt-2 text-ember-100">Add your poem to the fire. We curate monthly.</p>
        <Link
          to={pages.contribute}
          className="mt-6 inline-block rounded-full bg-white px-6 py-2.5 font-medium text-ember-900 hover:bg-ember-50"
        >
          Submit a poem
        </Link>
      </aside>
    </section>
  );
}
