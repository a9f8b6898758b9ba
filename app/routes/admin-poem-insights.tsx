import { data, Link } from "react-router";
import * as pages from "../../common/pages.ts";
import { withQuery } from "../../common/path-builder.ts";
import * as paths from "../../common/paths.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { AdminPage } from "../components/admin/admin-page.tsx";
import {
  BarChart,
  NumbersTable,
  numberFormat,
  percent,
  StanzaBars,
} from "../components/admin/insight-charts.tsx";
import { VerseLines } from "../components/verse.tsx";
import { adminMeta } from "../lib/admin-access.ts";
import { adminContext, appContext } from "../lib/app-context.ts";
import { orNotFound } from "../lib/not-found.ts";
import type { Route } from "./+types/admin-poem-insights";
import { insightWindow, Totals, WindowLinks } from "./admin-insights.tsx";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const insights = await orNotFound(
    services.insights.poem(context.get(adminContext), params.slug, insightWindow(request.url)),
  );
  if (!insights) return data({ insights: null }, { status: 404 });
  return { insights };
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  adminMeta(loaderData?.insights ? `Insights: ${loaderData.insights.title}` : "Insights");

const previewsText = (previews: Record<string, number>) =>
  Object.entries(previews)
    .sort(([, a], [, b]) => b - a)
    .map(([platform, count]) => `${platform} ${numberFormat.format(count)}`)
    .join(", ") || "none";

/**
 * One poem: its reading curve (the share of reported visits that reached each stanza) and, beside
 * each stanza's text, how many readers reached, echoed, saved, shared and whispered on it, and
 * how many liked it or replied to it from the fediverse (echoes and whispers include those).
 */
export default function AdminPoemInsights({ loaderData }: Route.ComponentProps) {
  const { insights } = loaderData;
  if (!insights) {
    return (
      <AdminPage title="Insights">
        <p className="mt-4 text-stone-700">
          No such poem.{" "}
          <Link to={pages.adminInsights} className="text-ember-700 underline underline-offset-4">
            All insights
          </Link>
        </p>
      </AdminPage>
    );
  }
  const shareOf = (reached: number) => (insights.readings > 0 ? reached / insights.readings : 0);
  const largest = Math.max(
    1,
    ...insights.stanzas.flatMap((stanza) => [
      stanza.reached,
      stanza.echoes,
      stanza.saves,
      stanza.shares,
      stanza.whispers,
      stanza.fediverse.likes,
      stanza.fediverse.replies,
    ]),
  );
  return (
    <AdminPage title={`Insights: ${insights.title}`}>
      <p className="mt-2">
        <Link
          to={withQuery(pages.adminInsights, { days: insights.days })}
          className="text-sm text-ember-700 underline underline-offset-4"
        >
          All insights
        </Link>
      </p>
      <WindowLinks days={insights.days} path={paths.adminPoemInsights(insights.slug)} />
      <Totals
        items={[
          { label: "Visitors", value: numberFormat.format(insights.visitors) },
          { label: "Views", value: numberFormat.format(insights.views) },
          { label: "Readings reported", value: numberFormat.format(insights.readings) },
          { label: "Read to the end", value: percent(insights.readToEnd) },
          { label: "Fediverse boosts", value: numberFormat.format(insights.fediverse.boosts) },
          {
            label: "Fediverse likes of the whole poem",
            value: numberFormat.format(insights.fediverse.likes),
          },
          { label: "Fediverse replies", value: numberFormat.format(insights.fediverse.replies) },
        ]}
      />

      <section aria-labelledby="curve-heading" className="mt-8">
        <h2 id="curve-heading" className="sr-only">
          Reading curve
        </h2>
        <BarChart
          title="Reading curve: the share of readings that reached each stanza"
          summary={`${percent(insights.readToEnd)} of ${numberFormat.format(insights.readings)} readings reached the last stanza.`}
          firstColumn="Stanza"
          labels={insights.stanzas.map((stanza) => `Stanza ${stanza.index + 1}`)}
          series={[
            {
              name: "Reached",
              values: insights.stanzas.map((stanza) => shareOf(stanza.reached)),
              fill: "fill-ember-700",
              swatch: "bg-ember-700",
            },
          ]}
          max={1}
          format={percent}
        />
        <p className="mt-2 text-sm text-stone-700">
          A stanza is reached when it was on screen for at least two seconds.
        </p>
      </section>

      <section aria-labelledby="stanzas-heading" className="mt-10">
        <h2 id="stanzas-heading" className="font-serif text-xl text-stone-900">
          What moved readers, stanza by stanza
        </h2>
        <ol className="mt-4 flex flex-col gap-6">
          {insights.stanzas.map((stanza) => (
            <li
              key={stanza.index}
              className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 md:grid-cols-2"
            >
              <div>
                <p className="text-sm text-stone-700">Stanza {stanza.index + 1}</p>
                <p className="mt-1 font-serif text-stone-900">
                  <VerseLines lines={stanzaLines(stanza.text)} />
                </p>
              </div>
              <div>
                <StanzaBars
                  label={`Stanza ${stanza.index + 1}: reached ${stanza.reached}, echoed ${stanza.echoes}, saved ${stanza.saves}, shared ${stanza.shares}, whispered ${stanza.whispers}, liked on the fediverse ${stanza.fediverse.likes}, replied from the fediverse ${stanza.fediverse.replies}`}
                  max={largest}
                  bars={[
                    { name: "Reached", value: stanza.reached },
                    { name: "Echoed", value: stanza.echoes },
                    { name: "Saved", value: stanza.saves },
                    { name: "Shared", value: stanza.shares },
                    { name: "Whispered", value: stanza.whispers },
                    { name: "Fediverse likes", value: stanza.fediverse.likes },
                    { name: "Fediverse replies", value: stanza.fediverse.replies },
                  ]}
                />
                <p className="mt-2 text-xs text-stone-700">
                  Link previews: {previewsText(stanza.previews)}
                </p>
              </div>
            </li>
          ))}
        </ol>
        <NumbersTable
          caption="Every stanza's numbers"
          head={[
            "Stanza",
            "Reached",
            "Echoed",
            "Saved",
            "Shared",
            "Whispered",
            "Fediverse likes",
            "Fediverse replies",
            "Previews",
          ]}
          rows={insights.stanzas.map((stanza) => [
            `Stanza ${stanza.index + 1}`,
            numberFormat.format(stanza.reached),
            numberFormat.format(stanza.echoes),
            numberFormat.format(stanza.saves),
            numberFormat.format(stanza.shares),
            numberFormat.format(stanza.whispers),
            numberFormat.format(stanza.fediverse.likes),
            numberFormat.format(stanza.fediverse.replies),
            previewsText(stanza.previews),
          ])}
        />
      </section>
    </AdminPage>
  );
}
