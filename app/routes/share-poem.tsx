import { data } from "react-router";
import * as paths from "../../common/paths.ts";
import { clampStanzaIndex, stanzaLines, stanzaText } from "../../common/stanza.ts";
import { readingExcerpt } from "../../common/stanza-timings.ts";
import { PoemNotFound, poemNotFoundMeta } from "../components/poem-not-found.tsx";
import { VerseLines } from "../components/verse.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { orNotFound } from "../lib/not-found.ts";
import type { Route } from "./+types/share-poem";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, audience } = context.get(appContext);
  const poem = await orNotFound(services.poems.getPoem(audience, params.slug));
  if (!poem) return data({ share: null }, { status: 404 });
  // Out of range or not a number: held to the poem's stanzas, never an error page.
  const index = clampStanzaIndex(new URL(request.url).searchParams.get("s"), poem.stanzas.length);
  return {
    share: {
      slug: poem.slug,
      title: poem.title,
      index,
      text: stanzaText(poem.stanzas[index] ?? ""),
      lines: stanzaLines(poem.stanzas[index] ?? ""),
      target: paths.stanza(poem.slug, index),
      excerpt: readingExcerpt(poem, index),
    },
  };
}

/**
 * The shareable stanza link: a preview card for chats and feeds, then on to the poem at once; a
 * stanza with its part of the poet's reading stays to offer it (docs/decisions/073), and names
 * it to link previews as `og:audio`.
 */
export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const share = loaderData?.share;
  if (!share) {
    return poemNotFoundMeta(site, params.slug);
  }
  return [
    ...pageMeta(site, {
      title: `${share.title}, stanza ${share.index + 1}`,
      description: share.text,
      path: paths.sharedStanza(share.slug, share.index),
      image: paths.stanzaCard(share.slug, share.index),
      type: "article",
    }),
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    ...(share.excerpt
      ? [{ property: "og:audio", content: new URL(share.excerpt.url, site.publicUrl).href }]
      : [{ httpEquiv: "refresh", content: `0; url=${share.target}` }]),
  ];
}

export default function SharePoem({ loaderData }: Route.ComponentProps) {
  const { share } = loaderData;
  if (!share) {
    return <PoemNotFound />;
  }
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      {/* Set as verse, left-aligned under the centred page, its lines and indentation kept. */}
      <blockquote className="inline-block text-left font-serif text-2xl">
        <VerseLines lines={share.lines} />
      </blockquote>
      <p className="mt-4 text-stone-700">— {share.title}</p>
      {share.excerpt && (
        <figure className="mx-auto mt-8 max-w-sm">
          <figcaption className="text-sm text-stone-700">This stanza, read by the poet</figcaption>
          {/* biome-ignore lint/a11y/useMediaCaption: the stanza it reads is the quotation above. */}
          <audio
            className="mt-2 w-full"
            src={share.excerpt.url}
            controls
            preload="none"
            aria-label={`Listen to stanza ${share.index + 1} of ${share.title}, read by the poet`}
          />
        </figure>
      )}
      <a
        href={share.target}
        className="mt-8 inline-block rounded-full bg-ember-700 px-6 py-2.5 text-white"
      >
        Read the poem
      </a>
    </section>
  );
}
