import { lazy, Suspense, useEffect, useState } from "react";
import { data, Link, redirect, useLocation } from "react-router";
import { z } from "zod/mini";
import { POEM_DESCRIPTION_LENGTH } from "../../common/constants.ts";
import { dayInZone, dayToDate, formatDate } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import { withQuery } from "../../common/path-builder.ts";
import * as paths from "../../common/paths.ts";
import { poemPreviewInput } from "../../common/schemas/admin.ts";
import type { Poem } from "../../common/schemas/poems.ts";
import { tagSlug } from "../../common/slug.ts";
import { cutAtWord, stanzaText } from "../../common/stanza.ts";
import { CoverImage } from "../components/cover-image.tsx";
import { ArrowLeft } from "../components/icons.ts";
import { PoemNotFound, poemNotFoundMeta } from "../components/poem-not-found.tsx";
import { ReadingSettings } from "../components/reading-settings.tsx";
import { isStanzaAddress, StanzaViewer } from "../components/stanza-viewer.tsx";
import { adminMeta } from "../lib/admin-access.ts";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { useNonce } from "../lib/nonce.tsx";
import { orNotFound } from "../lib/not-found.ts";
import { useIsHydrated } from "../lib/use-is-hydrated.ts";
import type { Route } from "./+types/poem";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

/**
 * The poet's reading: its code comes only with a poem that has one (most have none). The server
 * draws the player; as the page hydrates it may stand empty for the moment its code takes.
 */
const PoemAudio = lazy(() =>
  import("../components/poem-audio.tsx").then(({ PoemAudio }) => ({ default: PoemAudio })),
);

/** What the poet reads above a poem readers cannot see yet, and the poem's id for its actions. */
interface PreviewNotice {
  notice: string;
  /** The saved poem's id (Edit, Publish); null for the editor's unsaved preview. */
  poemId: number | null;
}

interface Byline {
  /** The poet's name from the site settings, else the site's title. */
  author: string;
  isPoetNamed: boolean;
  /** 'YYYY-MM-DD': the day readers first saw the poem, in the site's time zone. */
  publishedDay: string;
  /** That day as people read it ('November 22, 2026'), written here so pages ship no formatting. */
  publishedOn: string;
  /** The cover's `sizes` beside the title, worked out here for the same reason. */
  coverSizes: string;
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
  const publishedDay = dayInZone(timeZone, new Date(poem.publishAt));
  return {
    author: settings.poetName ?? settings.siteTitle,
    isPoetNamed: settings.poetName !== null,
    publishedDay,
    publishedOn: formatDate(dayToDate(publishedDay), "utc"),
    coverSizes: coverSizes(poem.coverWidth, poem.coverHeight),
  };
}

/** The poem as schema.org's CreativeWork, for search engines; only the server builds it. */
function structuredDataOf(poem: Poem, publicUrl: string, siteTitle: string, byline: Byline) {
  const url = new URL(paths.poem(poem.slug), publicUrl).toString();
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
      ? { "@type": "Person", name: byline.author, url: new URL(pages.about, publicUrl).toString() }
      : { "@type": "Organization", name: byline.author },
  };
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, audience, site } = context.get(appContext);
  // The editor's 'Preview' posts its unsaved poem to `?preview`, and the action shows it: a poem
  // not saved yet is no "not found" there (loaders run after the action, as a GET).
  const isPreview = new URL(request.url).searchParams.has("preview");
  const [poem, settings] = await Promise.all([
    orNotFound(services.poems.getPoem(audience, params.slug)),
    services.siteSettings.view(),
  ]);
  /** What the admin reads above a poem readers cannot see yet (only the admin is shown one). */
  const previewNotice = (shown: Poem): PreviewNotice | null => {
    const state = services.poems.publicationOf(shown);
    if (state === "published") return null;
    if (state === "draft") return { notice: "Draft — only you can see this", poemId: shown.id };
    const when = new Intl.DateTimeFormat("en-US", {
      timeZone: site.timezone,
      dateStyle: "full",
      timeStyle: "short",
    }).format(shown.publishAt);
    return {
      notice: `Scheduled for ${when} (${site.timezone}) — only you can see this`,
      poemId: shown.id,
    };
  };
  // Just published from the banner: the poet is told so, once, on the page readers now see.
  const isJustPublished =
    audience === "admin" && new URL(request.url).searchParams.has("published");
  const preview =
    poem && isJustPublished && services.poems.publicationOf(poem) === "published"
      ? { notice: "Published — readers can see this poem now", poemId: null }
      : poem
        ? previewNotice(poem)
        : null;
  const byline = poem ? bylineOf(poem, settings, site.timezone) : null;
  return data(
    {
      poem: poem ?? null,
      preview,
      byline,
      structuredData:
        poem && byline ? structuredDataOf(poem, site.publicUrl, settings.siteTitle, byline) : null,
      isPreview,
    },
    {
      status: poem || isPreview ? 200 : 404,
      // The admin's preview of a draft or scheduled poem is never kept (server/http/page-cache.ts).
      headers: preview ? { "Cache-Control": "private, no-store" } : undefined,
    },
  );
}

/**
 * The poet's two posts to a poem's page (docs/product/admin.md): the banner's 'Publish', which
 * puts a draft or scheduled poem out now, and the editor's 'Preview', the poem form's unsaved
 * values shown as readers will see this page (nothing is written).
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { services, admin, site } = context.get(appContext);
  if (!admin) throw data("Only the poet may do this", { status: 403 });
  const form = await request.formData();
  if (form.get("intent") === "publish") {
    // A change made by a post from a page: only from this site's own pages, as for the API.
    const origin = request.headers.get("Origin");
    if (origin !== new URL(site.publicUrl).origin) {
      throw data("Publish from the poem's own page", { status: 403 });
    }
    await services.contentAdmin.publishPoem(admin, Number(form.get("poemId")));
    throw redirect(`${paths.poem(params.slug)}?published`, 303);
  }
  let sent: unknown;
  try {
    sent = JSON.parse(String(form.get("poem") ?? ""));
  } catch {
    throw data("The preview could not be read", { status: 400 });
  }
  const input = z.safeParse(poemPreviewInput, sent);
  if (!input.success) throw data("The preview could not be read", { status: 400 });
  const [poem, settings] = await Promise.all([
    services.contentAdmin.previewPoem(admin, input.data),
    services.siteSettings.view(),
  ]);
  const preview: PreviewNotice = {
    notice: "Preview of your unsaved poem — only you can see this",
    poemId: null,
  };
  return data(
    { poem, preview, byline: bylineOf(poem, settings, site.timezone), structuredData: null },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = ({ loaderHeaders, actionHeaders }: Route.HeadersArgs) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const poem = loaderData?.poem;
  if (!poem) {
    return loaderData?.isPreview ? adminMeta("Preview") : poemNotFoundMeta(site, params.slug);
  }
  return pageMeta(site, {
    title: poem.title,
    description: cutAtWord(stanzaText(poem.stanzas[0] ?? ""), POEM_DESCRIPTION_LENGTH),
    path: paths.poem(poem.slug),
    // A poem without a cover is shared with its first stanza's card (server/share/card-routes.ts).
    image: poem.coverUrl ?? (poem.stanzas.length > 0 ? paths.stanzaCard(poem.slug, 0) : undefined),
    type: "article",
  });
}

function BackLink() {
  return (
    <Link
      to={pages.poetry}
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

const previewActionClass =
  "rounded-full border border-amber-700 px-4 py-1.5 text-sm font-medium text-amber-950 hover:bg-amber-100";

/**
 * The banner's ways on from a draft or scheduled poem, for the poet only: Edit opens it in the
 * poem form, Publish posts to this page, which puts it out now. Plain links and forms: they work
 * before the page's scripts arrive and add none.
 */
function PreviewActions({ poemId }: { poemId: number }) {
  return (
    <div className="flex flex-wrap gap-2">
      <a href={withQuery(pages.admin, { edit: poemId })} className={previewActionClass}>
        Edit
      </a>
      <form method="post">
        <input type="hidden" name="intent" value="publish" />
        <input type="hidden" name="poemId" value={poemId} />
        <button type="submit" className={previewActionClass}>
          Publish
        </button>
      </form>
    </div>
  );
}

/** 'by {poet} · {date}' under the title, and the same names for the stanza's context line. */
function BylineLine({ byline }: { byline: Byline }) {
  return (
    <p className="text-sm text-stone-700 md:text-base">
      by <span className="font-medium text-stone-800">{byline.author}</span>
      {" · "}
      <time dateTime={byline.publishedDay}>{byline.publishedOn}</time>
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
        to={paths.poem(poem.slug)}
        className="font-serif text-base text-stone-900 underline decoration-stone-300 underline-offset-4 hover:text-ember-700"
      >
        {poem.title}
      </Link>
      <span> · {byline.author}</span>
    </p>
  );
}

export default function PoemPage({ loaderData, actionData, matches }: Route.ComponentProps) {
  // The editor's preview, when this page answers its post; else the poem as saved.
  const { poem, preview, byline, structuredData } = actionData ?? loaderData;
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
      structuredData={structuredData}
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
  preview: PreviewNotice | null;
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
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950">
          <p role="status">{preview.notice}</p>
          {preview.poemId !== null && <PreviewActions poemId={preview.poemId} />}
        </div>
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
          sizes={byline.coverSizes}
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
                    to={paths.theme(tagSlug(tag.name))}
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
        // While its code arrives, the player's box keeps its place: nothing below it moves.
        <Suspense fallback={<div className="h-20" />}>
          <PoemAudio
            src={poem.audioUrl}
            title={poem.title}
            stanzaTimings={poem.stanzaTimings}
            captionsUrl={paths.readingCaptions(poem.slug)}
          />
        </Suspense>
      )}
      <div className="poem-viewer">
        <StanzaViewer poem={poem} siteName={site.name} publicUrl={site.publicUrl} />
      </div>
    </article>
  );
}
