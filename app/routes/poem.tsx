import { ArrowLeft } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Link, useLocation } from "react-router";
import { POEM_DESCRIPTION_LENGTH } from "../../common/constants.ts";
import { dayInZone, dayToDate, formatDate } from "../../common/dates.ts";
import type { Poem } from "../../common/schemas/poems.ts";
import { tagSlug } from "../../common/slug.ts";
import { cutAtWord, stanzaText } from "../../common/stanza.ts";
import { CoverImage } from "../components/cover-image.tsx";
import { PoemAudio } from "../components/poem-audio.tsx";
import { PoemNotFound, poemNotFoundMeta } from "../components/poem-not-found.tsx";
import { ReadingSettings } from "../components/reading-settings.tsx";
import { isStanzaAddress, StanzaViewer } from "../components/stanza-viewer.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { useNonce } from "../lib/nonce.tsx";
import { orNotFound } from "../lib/not-found.ts";
import { useIsHydrated } from "../lib/use-is-hydrated.ts";
import type { Route } from "./+types/poem";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

interface Byline {
  /** The poet's name from the site settings, else the site's title. */
  author: string;
  isPoetNamed: boolean;
  /** 'YYYY-MM-DD': the day readers first saw the poem, in the site's time zone. */
  publishedDay: string;
}

/**
 * Who wrote the poem and when it was published: `publishAt`, the day readers first saw it (an
 * imported poem keeps its original date there), never the day its row was made.
 */
function bylineOf(
  poem: Poem,
  settings: { siteTitle: string; poetName: string | null },
  timeZone: string,
): Byline {
  return {
    author: settings.poetName ?? settings.siteTitle,
    isPoetNamed: settings.poetName !== null,
    publishedDay: dayInZone(timeZone, new Date(poem.publishAt)),
  };
}

/** The poem as schema.org's CreativeWork, for search engines; only the server builds it. */
function structuredDataOf(poem: Poem, publicUrl: string, siteTitle: string, byline: Byline) {
  const url = new URL(`/poetry/${poem.slug}`, publicUrl).toString();
  return {
    "@context": "https://schema.org",
    "@type": "CreativeWork",
    genre: "Poem",
    name: poem.title,
    url,
    text: poem.stanzas.join("\n\n"),
    keywords: poem.tags.map((tag) => tag.name).join(", "),
    datePublished: new Date(poem.publishAt).toISOString(),
    dateModified: new Date(poem.updatedAt).toISOString(),
    ...(poem.coverUrl ? { image: new URL(poem.coverUrl, publicUrl).toString() } : {}),
    publisher: { "@type": "Organization", name: siteTitle },
    // The poet, once named in the site settings, is the Person their About page describes;
    // until then the site itself is the author.
    author: byline.isPoetNamed
      ? { "@type": "Person", name: byline.author, url: new URL("/about", publicUrl).toString() }
      : { "@type": "Organization", name: byline.author },
  };
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, audience, site } = context.get(appContext);
  const [poem, settings] = await Promise.all([
    orNotFound(services.poems.getPoem(audience, params.slug)),
    services.siteSettings.view(),
  ]);
  /** What the admin reads above a poem readers cannot see yet (only the admin is shown one). */
  const previewNotice = (shown: Poem): string | null => {
    const state = services.poems.publicationOf(shown);
    if (state === "published") return null;
    if (state === "draft") return "Draft — only you can see this";
    const when = new Intl.DateTimeFormat("en-US", {
      timeZone: site.timezone,
      dateStyle: "full",
      timeStyle: "short",
    }).format(shown.publishAt);
    return `Scheduled for ${when} (${site.timezone}) — only you can see this`;
  };
  const preview = poem ? previewNotice(poem) : null;
  const byline = poem ? bylineOf(poem, settings, site.timezone) : null;
  return data(
    {
      poem: poem ?? null,
      preview,
      byline,
      structuredData:
        poem && byline ? structuredDataOf(poem, site.publicUrl, settings.siteTitle, byline) : null,
    },
    {
      status: poem ? 200 : 404,
      // The admin's preview of a draft or scheduled poem is never kept (server/http/page-cache.ts).
      headers: preview ? { "Cache-Control": "private, no-store" } : undefined,
    },
  );
}

export const headers = ({ loaderHeaders }: Route.HeadersArgs) => loaderHeaders;

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const poem = loaderData?.poem;
  if (!poem) {
    return poemNotFoundMeta(site, params.slug);
  }
  return pageMeta(site, {
    title: poem.title,
    description: cutAtWord(stanzaText(poem.stanzas[0] ?? ""), POEM_DESCRIPTION_LENGTH),
    path: `/poetry/${poem.slug}`,
    // A poem without a cover is shared with its first stanza's card (server/api/og.ts).
    image: poem.coverUrl ?? (poem.stanzas.length > 0 ? `/og/stanza/${poem.slug}/0.png` : undefined),
    type: "article",
  });
}

function BackLink() {
  return (
    <Link
      to="/poetry"
      className="inline-flex items-center gap-1 text-sm text-stone-700 hover:text-ember-700"
    >
      <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Poetry
    </Link>
  );
}

/**
 * The cover sits beside the title, 6rem tall on a phone and 10rem from 768 px, so the first
 * stanza begins in the first screen: a reader came for the poem. Its width follows its
 * proportions, so the browser picks the smallest variant sharp at that width.
 */
function coverSizes(width: number | null, height: number | null) {
  if (!width || !height) return "(min-width: 768px) 160px, 96px";
  const widthAt = (heightPx: number) => Math.ceil((heightPx * width) / height);
  return `(min-width: 768px) ${widthAt(160)}px, ${widthAt(96)}px`;
}

/** 'by {poet} · {date}' under the title, and the same names for the stanza's context line. */
function BylineLine({ byline }: { byline: Byline }) {
  return (
    <p className="text-sm text-stone-700 md:text-base">
      by <span className="font-medium text-stone-800">{byline.author}</span>
      {" · "}
      <time dateTime={byline.publishedDay}>
        {formatDate(dayToDate(byline.publishedDay), "utc")}
      </time>
    </p>
  );
}

/**
 * Above a stanza the page was opened at: the poem and its poet in one line, a link to the poem's
 * start. Rendered on every poem page and shown only when it leads with a stanza (app.css).
 */
function StanzaContext({ poem, byline }: { poem: Poem; byline: Byline }) {
  return (
    <p className="stanza-context text-sm text-stone-700">
      <Link
        to={`/poetry/${poem.slug}`}
        className="font-serif text-base text-stone-900 underline decoration-stone-300 underline-offset-4 hover:text-ember-700"
      >
        {poem.title}
      </Link>
      <span> · {byline.author}</span>
    </p>
  );
}

export default function PoemPage({ loaderData, matches }: Route.ComponentProps) {
  const { poem, preview, byline } = loaderData;
  const { key } = useLocation();
  if (!poem || !byline) {
    return <PoemNotFound />;
  }
  // Each visit is its own page: a link from the stanza's context line to the poem's start (or
  // from the journal to another stanza) lays the page out afresh for the address it opens.
  return (
    <PoemArticle
      key={key}
      poem={poem}
      preview={preview}
      byline={byline}
      structuredData={loaderData.structuredData}
      site={siteFromMatches(matches)}
    />
  );
}

function PoemArticle({
  poem,
  preview,
  byline,
  structuredData,
  site,
}: {
  poem: Poem;
  preview: string | null;
  byline: Byline;
  structuredData: unknown;
  site: { name: string; publicUrl: string };
}) {
  const nonce = useNonce();
  const { hash } = useLocation();
  // A page served at a stanza is marked by the root's first script (the server cannot see the
  // address's #s-{index}); a page a link in the site opens at one knows it as it first renders.
  const isHydrated = useIsHydrated();
  const [isStanzaFirst] = useState(() => isHydrated && isStanzaAddress(hash));
  // Leading with the stanza is for the visit the page was opened at (app.css), not the next one.
  useEffect(() => () => void delete document.documentElement.dataset.openedAtStanza, []);
  return (
    <article
      className={`mx-auto flex max-w-3xl flex-col gap-6 ${isStanzaFirst ? "stanza-first" : ""}`}
    >
      <script
        type="application/ld+json"
        nonce={nonce}
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD; with '<' escaped the text cannot close the script element.
        dangerouslySetInnerHTML={{
          __html: JSON.stringify(structuredData).replace(/</g, "\\u003c"),
        }}
      />
      {preview && (
        <p
          role="status"
          className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950"
        >
          {preview}
        </p>
      )}
      <StanzaContext poem={poem} byline={byline} />
      <BackLink />
      <header className="flex items-center gap-4 md:gap-6">
        <CoverImage
          src={poem.coverUrl}
          alt={poem.coverAlt || `${poem.title} cover`}
          width={poem.coverWidth}
          height={poem.coverHeight}
          fallback="hidden"
          loading="eager"
          sizes={coverSizes(poem.coverWidth, poem.coverHeight)}
          className="h-24 w-auto max-w-[40%] shrink-0 rounded-lg object-cover shadow md:h-40"
        />
        <div className="flex min-w-0 flex-col gap-2 md:gap-3">
          <h1 className="font-serif text-3xl text-balance text-stone-900 md:text-5xl">
            {poem.title}
          </h1>
          <BylineLine byline={byline} />
          {poem.tags.length > 0 && (
            <ul className="flex flex-wrap gap-2" aria-label="Themes">
              {poem.tags.map((tag) => (
                <li key={tag.id}>
                  <Link
                    to={`/themes/${tagSlug(tag.name)}`}
                    className="rounded-full bg-ember-50 px-3 py-1 text-sm text-ember-900 hover:bg-ember-100"
                  >
                    {tag.name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      </header>
      <ReadingSettings />
      {poem.audioUrl && (
        <PoemAudio
          src={poem.audioUrl}
          title={poem.title}
          stanzaTimings={poem.stanzaTimings}
          captionsUrl={`/poetry/${encodeURIComponent(poem.slug)}/reading.vtt`}
        />
      )}
      <div className="poem-viewer">
        <StanzaViewer poem={poem} siteName={site.name} publicUrl={site.publicUrl} />
      </div>
    </article>
  );
}
