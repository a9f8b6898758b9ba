import { useEffect, useState } from "react";
import { data, Link } from "react-router";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import { ArrowLeft, ChevronLeft, ChevronRight } from "../components/icons.ts";
import { NotFoundState } from "../components/not-found-state.tsx";
import { PositionDots } from "../components/position-dots.tsx";
import { ReadingSettings } from "../components/reading-settings.tsx";
import { Verse } from "../components/verse.tsx";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { orNotFound } from "../lib/not-found.ts";
import type { Route } from "./+types/book-preview";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const book = await orNotFound(services.books.getBook(params.slug));
  return data(
    { book: book ? { title: book.title, slug: book.slug, pages: book.pages } : null },
    { status: book ? 200 : 404 },
  );
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  const book = loaderData?.book;
  return pageMeta(siteFromMatches(matches), {
    title: book ? `${book.title}: preview` : "Book not found",
    description: book ? `Preview pages from ${book.title}.` : "This book could not be found.",
    path: paths.bookPreview(params.slug),
  });
}

export default function BookPreview({ loaderData }: Route.ComponentProps) {
  const { book } = loaderData;
  const [index, setIndex] = useState(0);
  const count = book?.pages.length ?? 0;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "ArrowLeft") setIndex((current) => Math.max(0, current - 1));
      if (event.key === "ArrowRight") setIndex((current) => Math.min(count - 1, current + 1));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [count]);

  if (!book) {
    return <NotFoundState title="Book not found" backTo={pages.books} backLabel="Back to Books" />;
  }
  const page = book.pages[index];
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-6">
      <Link
        to={pages.books}
        className="inline-flex items-center gap-1 text-sm text-stone-700 hover:text-ember-700"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Books
      </Link>
      <h1 className="font-serif text-4xl text-stone-900">{book.title}</h1>
      <ReadingSettings />
      {!page ? (
        <p className="py-12 text-center text-stone-700">No preview pages available yet.</p>
      ) : (
        <>
          <article className="relative min-h-[22rem] rounded-xl border border-stone-200 bg-white px-12 py-10 shadow-sm">
            <h2 className="font-serif text-2xl text-stone-900">{page.title}</h2>
            <Verse
              text={page.content}
              className="mt-4 font-serif reading-text-lg leading-relaxed text-stone-800"
            />
            {index > 0 && (
              <button
                type="button"
                aria-label="Previous page"
                onClick={() => setIndex(index - 1)}
                className="absolute left-2 top-1/2 -translate-y-1/2 rounded-full p-2 hover:bg-stone-100"
              >
                <ChevronLeft aria-hidden="true" className="h-6 w-6" />
              </button>
            )}
            {index < count - 1 && (
              <button
                type="button"
                aria-label="Next page"
                onClick={() => setIndex(index + 1)}
                className="absolute right-2 top-1/2 -translate-y-1/2 rounded-full p-2 hover:bg-stone-100"
              >
                <ChevronRight aria-hidden="true" className="h-6 w-6" />
              </button>
            )}
          </article>
          <p aria-live="polite" className="text-center text-sm text-stone-700">
            Page {index + 1} of {count}
          </p>
          <PositionDots count={count} current={index} noun="page" onSelect={setIndex} />
        </>
      )}
    </section>
  );
}
