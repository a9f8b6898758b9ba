import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { data, Link } from "react-router";
import { POEM_DESCRIPTION_LENGTH } from "../../common/constants.ts";
import type { Poem } from "../../common/schemas/poems.ts";
import { tagSlug } from "../../common/slug.ts";
import { stanzaText } from "../../common/stanza.ts";
import { CoverImage } from "../components/cover-image.tsx";
import { PoemAudio } from "../components/poem-audio.tsx";
import { PoemNotFound, poemNotFoundMeta } from "../components/poem-not-found.tsx";
import { ReadingSettings } from "../components/reading-settings.tsx";
import { StanzaViewer } from "../components/stanza-viewer.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { useNonce } from "../lib/nonce.tsx";
import { orNotFound } from "../lib/not-found.ts";
import type { Route } from "./+types/poem";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

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
  return data(
    { poem: poem ?? null, preview, poetName: settings.poetName },
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
    description: stanzaText(poem.stanzas[0] ?? "").slice(0, POEM_DESCRIPTION_LENGTH),
    path: `/poetry/${poem.slug}`,
    image: poem.coverUrl ?? undefined,
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

/** The cover is shown 20rem (320 px) tall: as wide as its proportions make that, at most 90vw. */
const COVER_HEIGHT_PX = 320;
function coverSizes(width: number | null, height: number | null) {
  return width && height ? `min(90vw, ${Math.ceil((COVER_HEIGHT_PX * width) / height)}px)` : "90vw";
}

export default function PoemPage({ loaderData, matches }: Route.ComponentProps) {
  const site = siteFromMatches(matches);
  const nonce = useNonce();
  const { poem, preview, poetName } = loaderData;
  const slug = poem?.slug;
  // Leading with the stanza is for the poem the page was opened at (app.css), not the next one.
  useEffect(
    () => () => {
      if (slug) delete document.documentElement.dataset.openedAtStanza;
    },
    [slug],
  );
  if (!poem) {
    return <PoemNotFound />;
  }
  const url = new URL(`/poetry/${poem.slug}`, site.publicUrl).toString();
  const structuredData = {
    "@context": "https://schema.org",
    "@type": "CreativeWork",
    genre: "Poem",
    name: poem.title,
    url,
    text: poem.stanzas.join("\n\n"),
    keywords: poem.tags.map((tag) => tag.name).join(", "),
    datePublished: new Date(poem.createdAt).toISOString(),
    dateModified: new Date(poem.updatedAt).toISOString(),
    ...(poem.coverUrl ? { image: new URL(poem.coverUrl, site.publicUrl).toString() } : {}),
    publisher: { "@type": "Organization", name: site.name },
    // The poet, once named in the site settings: the Person their About page describes.
    ...(poetName
      ? {
          author: {
            "@type": "Person",
            name: poetName,
            url: new URL("/about", site.publicUrl).toString(),
          },
        }
      : {}),
  };
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-6">
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
      <BackLink />
      <CoverImage
        src={poem.coverUrl}
        alt={poem.coverAlt || `${poem.title} cover`}
        width={poem.coverWidth}
        height={poem.coverHeight}
        fallback="hidden"
        loading="eager"
        sizes={coverSizes(poem.coverWidth, poem.coverHeight)}
        className="mx-auto h-80 w-auto max-w-full rounded-xl object-cover shadow"
      />
      <header className="flex flex-col gap-3 text-center">
        <h1 className="font-serif text-4xl text-stone-900 md:text-5xl">{poem.title}</h1>
        {poem.tags.length > 0 && (
          <ul className="flex flex-wrap justify-center gap-2" aria-label="Themes">
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
      </header>
      <ReadingSettings />
      {poem.audioUrl && <PoemAudio src={poem.audioUrl} title={poem.title} />}
      <div className="poem-viewer">
        <StanzaViewer poem={poem} siteName={site.name} publicUrl={site.publicUrl} />
      </div>
    </article>
  );
}
