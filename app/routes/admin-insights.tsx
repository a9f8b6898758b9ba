import { Link } from "react-router";
import * as pages from "../../common/pages.ts";
import { withQuery } from "../../common/path-builder.ts";
import * as paths from "../../common/paths.ts";
import {
  DEFAULT_INSIGHT_WINDOW,
  INSIGHT_WINDOWS,
  type InsightsSummary,
} from "../../common/schemas/insights.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import { BarChart, DataTable, numberFormat } from "../components/admin/insight-charts.tsx";
import { adminMeta } from "../lib/admin-access.ts";
import { adminContext, appContext } from "../lib/app-context.ts";
import type { Route } from "./+types/admin-insights";

/** `?days=`: one of the windows the page offers, 30 otherwise. */
export function insightWindow(url: string): number {
  const asked = Number(new URL(url).searchParams.get("days"));
  return (INSIGHT_WINDOWS as readonly number[]).includes(asked) ? asked : DEFAULT_INSIGHT_WINDOW;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const summary = await services.insights.summary(
    context.get(adminContext),
    insightWindow(request.url),
  );
  return { summary };
}

export const meta = () => adminMeta("Insights");

/** The 7, 30 and 90 day links, the chosen one marked. */
export function WindowLinks({ days, path }: { days: number; path: string }) {
  return (
    <nav aria-label="Time window" className="mt-4">
      <ul className="flex flex-wrap gap-2 text-sm">
        {INSIGHT_WINDOWS.map((window) => (
          <li key={window}>
            <Link
              to={`${path}?days=${window}`}
              aria-current={window === days ? "page" : undefined}
              className={`inline-block rounded-full border px-3 py-1 ${
                window === days
                  ? "border-ember-700 bg-ember-50 text-ember-800"
                  : "border-stone-300 text-stone-800 hover:border-ember-700"
              }`}
            >
              Last {window} days
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Totals({ items }: { items: Array<{ label: string; value: string }> }) {
  return (
    <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map((item) => (
        <div key={item.label} className="rounded-lg border border-stone-200 bg-white p-3">
          <dt className="text-sm text-stone-700">{item.label}</dt>
          <dd className="font-serif text-2xl text-stone-900 tabular-nums">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const SOURCE_GROUP_NAMES: Record<InsightsSummary["sources"][number]["group"], string> = {
  search: "Search",
  fediverse: "Fediverse",
  email: "Email",
  site: "Other site",
  direct: "Direct",
};

/** A source's id as the poet reads it: 'google', 'mastodon.social', 'the digest and mail'. */
function sourceName(source: InsightsSummary["sources"][number]): string {
  if (source.group === "email") return "Email (the digest)";
  if (source.group === "direct") return "Direct (no referrer)";
  return source.source.slice(source.source.indexOf(":") + 1);
}

const shortDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/** What resonated: the site over 7, 30 or 90 days (docs/product/insights.md). */
export default function AdminInsights({ loaderData }: Route.ComponentProps) {
  const { summary } = loaderData;
  const labels = summary.daily.map((day) => shortDay(day.date));
  return (
    <AdminPage title="Insights">
      <p className="mt-2 text-stone-700">
        Counts of pages read, per day, with nothing kept about any reader.{" "}
        <Link to={pages.privacy} className="text-ember-700 underline underline-offset-4">
          What is counted
        </Link>
      </p>
      <WindowLinks days={summary.days} path={pages.adminInsights} />
      <Totals
        items={[
          { label: "Visitors", value: numberFormat.format(summary.totals.visitors) },
          { label: "Views", value: numberFormat.format(summary.totals.views) },
        ]}
      />

      <section aria-labelledby="daily-heading" className="mt-8">
        <h2 id="daily-heading" className="sr-only">
          Per day
        </h2>
        <BarChart
          title={`Visitors and views per day, last ${summary.days} days`}
          summary={`${numberFormat.format(summary.totals.visitors)} visitors and ${numberFormat.format(summary.totals.views)} views in all.`}
          firstColumn="Day"
          labels={labels}
          series={[
            {
              name: "Visitors",
              values: summary.daily.map((day) => day.visitors),
              fill: "fill-ember-700",
              swatch: "bg-ember-700",
            },
            {
              name: "Views",
              values: summary.daily.map((day) => day.views),
              fill: "fill-stone-500",
              swatch: "bg-stone-500",
            },
          ]}
        />
      </section>

      <section aria-labelledby="poems-heading" className="mt-10">
        <h2 id="poems-heading" className="font-serif text-xl text-stone-900">
          Top poems
        </h2>
        {summary.poems.length === 0 ? (
          <p className="mt-2 text-stone-700">No poem was read in these days.</p>
        ) : (
          <div className="mt-2">
            <DataTable
              caption="Top poems by views"
              head={["Poem", "Visitors", "Views"]}
              rows={summary.poems.map((poem) => [
                <Link
                  key={poem.slug}
                  to={withQuery(paths.adminPoemInsights(poem.slug), { days: summary.days })}
                  className="text-ember-700 underline underline-offset-4"
                >
                  {poem.title}
                </Link>,
                numberFormat.format(poem.visitors),
                numberFormat.format(poem.views),
              ])}
            />
          </div>
        )}
      </section>

      <section aria-labelledby="sources-heading" className="mt-10">
        <h2 id="sources-heading" className="font-serif text-xl text-stone-900">
          Where readers came from
        </h2>
        {summary.sources.length === 0 ? (
          <p className="mt-2 text-stone-700">No visitors in these days.</p>
        ) : (
          <div className="mt-2">
            <DataTable
              caption="Top sources by visitors"
              head={["Source", "Kind", "Visitors"]}
              rows={summary.sources.map((source) => [
                sourceName(source),
                SOURCE_GROUP_NAMES[source.group],
                numberFormat.format(source.visitors),
              ])}
            />
          </div>
        )}
      </section>

      <section aria-labelledby="subscribers-heading" className="mt-10">
        <h2 id="subscribers-heading" className="sr-only">
          Subscribers
        </h2>
        <BarChart
          title="Digest subscribers at the end of each day"
          summary={`${numberFormat.format(summary.subscribers.at(-1)?.count ?? 0)} subscribers today.`}
          firstColumn="Day"
          labels={summary.subscribers.map((day) => shortDay(day.date))}
          series={[
            {
              name: "Subscribers",
              values: summary.subscribers.map((day) => day.count),
              fill: "fill-ember-700",
              swatch: "bg-ember-700",
            },
          ]}
        />
      </section>

      {summary.followers && (
        <section aria-labelledby="followers-heading" className="mt-10">
          <h2 id="followers-heading" className="sr-only">
            Fediverse followers
          </h2>
          <BarChart
            title="Fediverse followers at the end of each day"
            summary={`${numberFormat.format(summary.followers.at(-1)?.count ?? 0)} followers today.`}
            firstColumn="Day"
            labels={summary.followers.map((day) => shortDay(day.date))}
            series={[
              {
                name: "Followers",
                values: summary.followers.map((day) => day.count),
                fill: "fill-ember-700",
                swatch: "bg-ember-700",
              },
            ]}
          />
          <p className="mt-2 text-sm text-stone-700">
            An unfollow, a block or a deleted account removes its follower, so each day shows those
            who follow now and had followed by then, not those who left since.
          </p>
        </section>
      )}

      <section aria-labelledby="digest-heading" className="mt-10">
        <h2 id="digest-heading" className="font-serif text-xl text-stone-900">
          The digest's links
        </h2>
        <p className="mt-2 text-sm text-stone-700">
          Each link in a digest passes through this site once, which counts a click for that sending
          and that link; no subscriber is named in the link or kept with the click. Opens are not
          counted: mail privacy proxies (Apple Mail's among them) fetch every message's images as it
          arrives, so an "open" would count deliveries, not readers.
        </p>
        {summary.digest.length === 0 ? (
          <p className="mt-2 text-stone-700">No digest was sent in these days.</p>
        ) : (
          summary.digest.map((run) => (
            <div key={run.runId} className="mt-4">
              <h3 className="font-medium text-stone-900">
                {run.subject}{" "}
                <span className="text-sm font-normal text-stone-700">
                  {new Date(run.createdAt).toLocaleDateString("en-US", {
                    month: "short",
                    day: "numeric",
                    year: "numeric",
                  })}
                  , sent to {numberFormat.format(run.sentCount)}
                </span>
              </h3>
              <div className="mt-1">
                <DataTable
                  caption={`Clicks per link: ${run.subject}`}
                  head={["Link", "Clicks"]}
                  rows={run.clicks.map((click) => [
                    <span key={click.url} className="break-all">
                      {click.url.replace(/^https?:\/\/[^/]+/, "")}
                    </span>,
                    numberFormat.format(click.count),
                  ])}
                />
              </div>
            </div>
          ))
        )}
      </section>
    </AdminPage>
  );
}
