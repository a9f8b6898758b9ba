import { Link } from "react-router";
import { matchBookSlots } from "../../common/book-slots.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { CoverImage } from "../components/cover-image.tsx";
import { BookOpen } from "../components/icons.ts";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import type { Route } from "./+types/books";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const [books, settings] = await Promise.all([
    services.books.listBooks(),
    services.siteSettings.view(),
  ]);
  const { slots: words, closing } = settings.booksPage;
  return {
    // Each slot with the poet's words for it; an empty slot the poet hides is left off.
    slots: matchBookSlots(books, settings.bookSlotTitles)
      .map(({ slot, book }, index) => ({
        slot: { order: slot.order, title: slot.title },
        book,
        words: words[index],
      }))
      .filter(({ book, words }) => book || !words?.isHiddenWhenEmpty),
    closing,
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Books",
    description: "Five books, five themes: Belonging, Pilgrimage, Memory, Fatherhood, Becoming.",
    path: pages.books,
  });
}

export default function Books({ loaderData }: Route.ComponentProps) {
  return (
    <section className="flex flex-col gap-10">
      <h1 className="font-serif text-4xl text-stone-900">Books</h1>
      <ol className="flex flex-col gap-8">
        {loaderData.slots.map(({ slot, book, words }) => (
          <li
            key={slot.order}
            className="grid gap-6 rounded-xl border border-stone-200 bg-white p-6 md:grid-cols-[12rem_1fr]"
          >
            {book ? (
              <CoverImage
                src={book.coverUrl}
                alt={`${book.title} cover`}
                fallback="icon"
                sizes="12rem"
                className="aspect-[4/5] w-48 rounded object-cover shadow"
              />
            ) : (
              <div className="flex aspect-[4/5] w-48 flex-col items-center justify-center gap-2 rounded bg-stone-200 text-stone-600">
                <BookOpen aria-hidden="true" className="h-10 w-10" />
                {words?.comingSoon && (
                  <span className="px-3 text-center text-sm font-medium">{words.comingSoon}</span>
                )}
              </div>
            )}
            <div className="flex flex-col gap-3">
              {words?.label && (
                <p className="text-xs uppercase tracking-wide text-stone-600">{words.label}</p>
              )}
              <h2 className="font-serif text-2xl text-stone-900">{book?.title ?? slot.title}</h2>
              {book && <p className="text-stone-700">{book.blurb}</p>}
              {words?.pullQuote && (
                <blockquote className="border-l-4 border-ember-600 pl-4 font-serif italic text-stone-800">
                  {words.pullQuote}
                </blockquote>
              )}
              <div className="mt-2 flex flex-wrap gap-3">
                {book ? (
                  <>
                    <a
                      href={book.buyUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="rounded-full bg-ember-700 px-5 py-2 font-medium text-white hover:bg-ember-800"
                    >
                      Buy Now
                    </a>
                    <Link
                      to={paths.bookPreview(book.slug)}
                      className="rounded-full border border-ember-700 px-5 py-2 font-medium text-ember-800 hover:bg-ember-50"
                    >
                      Preview Pages
                    </Link>
                  </>
                ) : (
                  words?.comingSoon && (
                    <button
                      type="button"
                      disabled
                      className="cursor-not-allowed rounded-full bg-stone-200 px-5 py-2 text-stone-600"
                    >
                      {words.comingSoon}
                    </button>
                  )
                )}
              </div>
            </div>
          </li>
        ))}
      </ol>
      {loaderData.closing && (
        <p className="mx-auto max-w-2xl text-center text-stone-700">{loaderData.closing}</p>
      )}
    </section>
  );
}
