import { Link } from "react-router";
import { EMBER_DESCRIPTION_LENGTH } from "../../common/constants.ts";
import { formatLongDay } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import { cutAtWord } from "../../common/stanza.ts";
import { EmberShareButton } from "../components/ember-share-button.tsx";
import { ReadingSettings } from "../components/reading-settings.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { orNotFound } from "../lib/not-found.ts";
import type { Route } from "./+types/ember";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const ember = await orNotFound(services.embers.getTodaysEmber());
  return { ember: ember ? { text: ember.text, date: ember.date } : null };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const ember = loaderData?.ember;
  return pageMeta(siteFromMatches(matches), {
    title: "Daily Ember",
    description: ember
      ? cutAtWord(ember.text, EMBER_DESCRIPTION_LENGTH)
      : "A short daily text to carry with you.",
    path: pages.ember,
  });
}

export default function DailyEmber({ loaderData, matches }: Route.ComponentProps) {
  const site = siteFromMatches(matches);
  const { ember } = loaderData;
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center gap-6 py-10 text-center">
      <h1 className="font-serif text-4xl text-stone-900">Daily Ember</h1>
      {ember ? (
        <>
          <p className="text-sm uppercase tracking-wide text-stone-600">
            {formatLongDay(ember.date)}
          </p>
          <ReadingSettings />
          <blockquote className="font-serif reading-text-2xl leading-relaxed text-stone-900 md:reading-text-3xl">
            “{ember.text}”
          </blockquote>
          <EmberShareButton
            text={ember.text}
            siteName={site.name}
            url={new URL(pages.ember, site.publicUrl).toString()}
          />
        </>
      ) : (
        <div className="py-8">
          <p className="font-serif text-2xl">No ember available today</p>
          <p className="mt-2 text-stone-700">Check back tomorrow for new inspiration.</p>
        </div>
      )}
      <Link
        to={pages.emberArchive}
        className="text-ember-800 underline underline-offset-4 hover:text-ember-700"
      >
        View Archive
      </Link>
    </section>
  );
}
