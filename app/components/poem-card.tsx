import { Link } from "react-router";
import { POEM_CARD_PREVIEW_LENGTH, POEM_CARD_TAGS_SHOWN } from "../../common/constants.ts";
import * as paths from "../../common/paths.ts";
import { stanzaLines, stanzaText, truncate } from "../../common/stanza.ts";
import { CoverImage } from "./cover-image.tsx";

/** A poem as the collection's API and loader return it. */
export interface PoemCardSource {
  id: number;
  title: string;
  slug: string;
  stanzas: unknown;
  coverUrl: string | null;
  coverAlt: string | null;
  coverWidth: number | null;
  coverHeight: number | null;
  tags: { id: number; name: string }[];
}

/** What a card shows of a poem. */
export interface PoemCardData extends Omit<PoemCardSource, "stanzas"> {
  /** The first stanza's opening, or null when the poem has none. */
  preview: string | null;
  /** The first stanza's first lines, set on the card of a poem without a cover. */
  openingLines: string[];
  stanzaCount: number | null;
}

/** How many of the first stanza's lines a coverless poem's card shows. */
const OPENING_LINES_SHOWN = 3;

/**
 * Cards carry the first stanza's opening, not whole poems: the page's hydration data stays a
 * fraction of the poems' text.
 */
export function toPoemCard(poem: PoemCardSource): PoemCardData {
  const stanzas = Array.isArray(poem.stanzas) ? (poem.stanzas as string[]) : undefined;
  const first = stanzas?.[0];
  return {
    id: poem.id,
    title: poem.title,
    slug: poem.slug,
    coverUrl: poem.coverUrl,
    coverAlt: poem.coverAlt,
    coverWidth: poem.coverWidth,
    coverHeight: poem.coverHeight,
    tags: poem.tags,
    preview: first ? truncate(stanzaText(first), POEM_CARD_PREVIEW_LENGTH) : null,
    openingLines: first ? stanzaLines(first).slice(0, OPENING_LINES_SHOWN) : [],
    stanzaCount: stanzas ? stanzas.length : null,
  };
}

/**
 * The cover of a poem that has none: its title and opening lines, set like a title page in the
 * cover's place. Hidden from screen readers, which read the same title and preview just below.
 */
function TypographicCover({ poem }: { poem: PoemCardData }) {
  return (
    <div
      aria-hidden="true"
      data-testid="typographic-cover"
      className="flex aspect-[4/5] max-h-64 w-full flex-col justify-center gap-4 overflow-hidden border-b border-ember-100 bg-ember-50 px-7 font-serif"
    >
      <p className="text-2xl leading-tight text-ember-900">{poem.title}</p>
      {poem.openingLines.length > 0 && (
        <p className="border-l-2 border-ember-700 pl-3 text-sm italic leading-relaxed text-stone-800">
          {poem.openingLines.map((line, lineNumber) => (
            // Each line keeps its indentation (the poet's, docs/product/reading.md), cut at the edge.
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional text.
            <span key={lineNumber} className="block overflow-hidden text-ellipsis whitespace-pre">
              {line}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}

/** A card in the poem grid (docs/product/reading.md, Poem card). */
export function PoemCard({ poem, isFirst }: { poem: PoemCardData; isFirst?: boolean }) {
  const shownTags = poem.tags.slice(0, POEM_CARD_TAGS_SHOWN);
  const hiddenTagCount = poem.tags.length - shownTags.length;
  return (
    <li className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md">
      <Link to={paths.poem(poem.slug)} className="flex h-full flex-col">
        <CoverImage
          src={poem.coverUrl}
          alt={poem.coverAlt || `${poem.title} cover`}
          width={poem.coverWidth}
          height={poem.coverHeight}
          fallback={<TypographicCover poem={poem} />}
          loading={isFirst ? "eager" : "lazy"}
          sizes="(min-width: 1024px) 22rem, (min-width: 640px) 50vw, 100vw"
          className="aspect-[4/5] max-h-64 w-full object-cover"
        />
        <div className="flex flex-1 flex-col gap-2 p-4">
          <h2 className="font-serif text-xl text-stone-900">{poem.title}</h2>
          {poem.tags.length > 0 && (
            <p className="flex flex-wrap gap-1 text-xs">
              {shownTags.map((tag) => (
                <span key={tag.id} className="rounded-full bg-ember-50 px-2 py-0.5 text-ember-900">
                  {tag.name}
                </span>
              ))}
              {hiddenTagCount > 0 && (
                <span className="px-1 py-0.5 text-stone-600">+{hiddenTagCount} more</span>
              )}
            </p>
          )}
          <p className="flex-1 text-sm leading-relaxed text-stone-700">
            {poem.preview ?? "No preview available"}
          </p>
          <p className="text-xs font-medium text-ember-800">
            {poem.stanzaCount === null ? "Read poem" : `${poem.stanzaCount} stanzas`}
          </p>
        </div>
      </Link>
    </li>
  );
}
