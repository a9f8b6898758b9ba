import * as pages from "../../common/pages.ts";
import { cutAtWord } from "../../common/stanza.ts";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { useNonce } from "../lib/nonce.tsx";
import type { Route } from "./+types/about";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

/** How much of the bio a link preview shows. */
const DESCRIPTION_LENGTH = 160;

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const settings = await services.siteSettings.view();
  return {
    poetName: settings.poetName,
    poetBio: settings.poetBio,
    portraitUrl: settings.portraitUrl,
    links: settings.links,
    tagline: settings.tagline,
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const about = loaderData?.poetName ?? site.name;
  return pageMeta(site, {
    title: "About",
    description:
      (loaderData?.poetBio && cutAtWord(loaderData.poetBio, DESCRIPTION_LENGTH)) ||
      `About ${about}.`,
    path: pages.about,
    image: loaderData?.portraitUrl ?? undefined,
  });
}

/**
 * The poet's page, from the site settings: portrait, name, bio and links. Every link is the
 * poet's own, so each carries rel="me": a Mastodon profile that links back here shows it verified.
 */
export default function About({ loaderData, matches }: Route.ComponentProps) {
  const site = siteFromMatches(matches);
  const nonce = useNonce();
  const { poetName, poetBio, portraitUrl, links, tagline } = loaderData;
  const pageUrl = new URL(pages.about, site.publicUrl).toString();
  const person = poetName && {
    "@context": "https://schema.org",
    "@type": "Person",
    name: poetName,
    url: pageUrl,
    ...(poetBio ? { description: poetBio } : {}),
    ...(portraitUrl ? { image: new URL(portraitUrl, site.publicUrl).toString() } : {}),
    ...(links.length > 0 ? { sameAs: links.map((link) => link.url) } : {}),
  };
  return (
    <article className="mx-auto flex max-w-2xl flex-col items-center gap-6 text-center">
      {person && (
        <script
          type="application/ld+json"
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD; with '<' escaped the text cannot close the script element.
          dangerouslySetInnerHTML={{ __html: JSON.stringify(person).replace(/</g, "\\u003c") }}
        />
      )}
      {portraitUrl && (
        <img
          src={portraitUrl}
          alt={poetName ? `Portrait of ${poetName}` : "Portrait of the poet"}
          width={240}
          height={300}
          className="h-60 w-48 rounded-2xl object-cover shadow"
        />
      )}
      <h1 className="font-serif text-4xl text-stone-900">{poetName ?? `About ${site.name}`}</h1>
      <div className="flex flex-col gap-4 text-left text-lg leading-relaxed text-stone-800">
        {(poetBio ?? tagline).split(/\n\s*\n/).map((paragraph, position) => (
          <p
            // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one text, never reordered.
            key={position}
            className="whitespace-pre-line"
          >
            {paragraph}
          </p>
        ))}
      </div>
      {links.length > 0 && (
        <nav aria-label={poetName ? `${poetName} elsewhere` : "Elsewhere"}>
          <ul className="flex flex-wrap justify-center gap-3">
            {links.map((link) => (
              <li key={`${link.label} ${link.url}`}>
                <a
                  href={link.url}
                  rel="me noopener"
                  className="inline-block rounded-full border border-stone-300 bg-white px-4 py-1.5 text-stone-800 hover:border-ember-700"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </article>
  );
}
