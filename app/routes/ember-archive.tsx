import { useState } from "react";
import { Link } from "react-router";
import { EMBERS_PAGE_SIZE } from "../../common/constants.ts";
import { formatLongDay } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import type { ArchivedEmber } from "../../common/schemas/embers.ts";
import { EmberShareButton } from "../components/ember-share-button.tsx";
import { ArrowLeft } from "../components/icons.ts";
import { callApi } from "../lib/api.ts";
import { appContext } from "../lib/app-context.ts";
import { sharedPage } from "../lib/cache-policy.ts";
import { pageMeta, siteFromMatches } from "../lib/meta.ts";
import { notifyError } from "../lib/toast.ts";
import type { Route } from "./+types/ember-archive";

/** The same page for every reader of an audience: the page cache may keep it. */
export const handle = sharedPage;

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const embers = await services.embers.listEmbers(1, EMBERS_PAGE_SIZE);
  return { embers: embers.map(({ id, text, date }) => ({ id, text, date })) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(siteFromMatches(matches), {
    title: "Ember Archive",
    description: "Every daily ember so far, newest first.",
    path: pages.emberArchive,
  });
}

export default function EmberArchive({ loaderData, matches }: Route.ComponentProps) {
  const site = siteFromMatches(matches);
  const [embers, setEmbers] = useState<ArchivedEmber[]>(loaderData.embers);
  const [page, setPage] = useState(1);
  // Load More shows only when the last page came back full (docs/product/reading.md).
  const [lastPageSize, setLastPageSize] = useState(loaderData.embers.length);
  const [isLoading, setLoading] = useState(false);

  async function loadMore() {
    setLoading(true);
    try {
      const next = await callApi("listEmbers", {
        query: { page: String(page + 1), limit: String(EMBERS_PAGE_SIZE) },
      });
      setEmbers((current) => [...current, ...next]);
      setPage(page + 1);
      setLastPageSize(next.length);
    } catch {
      notifyError("Something went awry", "More embers couldn't be loaded right now.");
    } finally {
      setLoading(false);
    }
  }

  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-6">
      <Link
        to={pages.ember}
        className="inline-flex items-center gap-1 text-sm text-stone-700 hover:text-ember-700"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Today's Ember
      </Link>
      <h1 className="font-serif text-4xl text-stone-900">Ember Archive</h1>
      {embers.length === 0 ? (
        <p className="py-12 text-center font-serif text-xl">No embers in archive</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {embers.map((ember) => (
            <li
              key={ember.id}
              className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-5"
            >
              <p className="text-sm text-stone-600">{formatLongDay(ember.date)}</p>
              <p className="font-serif text-xl text-stone-900">“{ember.text}”</p>
              <div>
                <EmberShareButton
                  text={ember.text}
                  siteName={site.name}
                  url={new URL(pages.emberArchive, site.publicUrl).toString()}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      {lastPageSize === EMBERS_PAGE_SIZE && (
        <button
          type="button"
          onClick={loadMore}
          disabled={isLoading}
          className="self-center rounded-full border border-ember-700 px-6 py-2 font-medium text-ember-800 hover:bg-ember-50 disabled:opacity-60"
        >
          Load More
        </button>
      )}
    </section>
  );
}
