import { type ReactNode, useId } from "react";

/**
 * The insights' charts (docs/product/insights.md): SVG drawn on the server with the page, each an
 * image with a name, its numbers in a table beside it. The bars stretch with the page; every
 * label is HTML text, so it stays legible at 375 px, and every colour is one of the site's
 * tokens, so the charts follow the three themes.
 */

export interface ChartSeries {
  name: string;
  values: number[];
  /** A fill from the site's tokens (fill-ember-700…) and the legend's swatch colour. */
  fill: string;
  swatch: string;
}

const CHART_HEIGHT = 160;

export const numberFormat = new Intl.NumberFormat("en-US");
export const percent = (share: number) => `${Math.round(share * 100)}%`;

/** A legend entry: the series' colour and name. */
function Legend({ series }: { series: ChartSeries[] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-700">
      {series.map((one) => (
        <li key={one.name} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-sm ${one.swatch}`} />
          {one.name}
        </li>
      ))}
    </ul>
  );
}

/**
 * Vertical bars, one group per label: `series` side by side. `summary` names the image for
 * assistive technology; the table under it holds every number.
 */
export function BarChart({
  title,
  summary,
  labels,
  series,
  format = (value) => numberFormat.format(value),
  firstColumn,
  max: givenMax,
}: {
  title: string;
  summary: string;
  labels: string[];
  series: ChartSeries[];
  format?: (value: number) => string;
  firstColumn: string;
  max?: number;
}) {
  const id = useId();
  const max = Math.max(givenMax ?? 0, 1, ...series.flatMap((one) => one.values));
  const groupWidth = 100 / Math.max(labels.length, 1);
  const barWidth = (groupWidth * 0.8) / Math.max(series.length, 1);
  return (
    <figure className="mt-4">
      <figcaption id={`${id}-title`} className="font-serif text-xl text-stone-900">
        {title}
      </figcaption>
      <div className="mt-2">
        <Legend series={series} />
      </div>
      <div className="mt-2 flex gap-2">
        <div className="flex flex-col justify-between text-right text-xs text-stone-700">
          <span>{format(max)}</span>
          <span>{format(0)}</span>
        </div>
        <svg
          role="img"
          aria-labelledby={`${id}-name ${id}-summary`}
          viewBox={`0 0 100 ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 w-full border-b border-l border-stone-400"
        >
          <title id={`${id}-name`}>{title}</title>
          <desc id={`${id}-summary`}>{summary}</desc>
          {labels.map((label, group) =>
            series.map((one, position) => {
              const value = one.values[group] ?? 0;
              const height = (value / max) * (CHART_HEIGHT - 2);
              return (
                <rect
                  key={`${label}-${one.name}`}
                  x={group * groupWidth + groupWidth * 0.1 + position * barWidth}
                  y={CHART_HEIGHT - height}
                  width={barWidth}
                  height={height}
                  className={one.fill}
                />
              );
            }),
          )}
        </svg>
      </div>
      <div className="mt-1 flex justify-between pl-8 text-xs text-stone-700">
        <span>{labels[0]}</span>
        {labels.length > 2 && <span>{labels[Math.floor(labels.length / 2)]}</span>}
        {labels.length > 1 && <span>{labels[labels.length - 1]}</span>}
      </div>
      <NumbersTable
        caption={title}
        head={[firstColumn, ...series.map((one) => one.name)]}
        rows={labels.map((label, row) => [
          label,
          ...series.map((one) => format(one.values[row] ?? 0)),
        ])}
      />
    </figure>
  );
}

/** The numbers of a chart, folded under it so a 90-day table does not push the page away. */
export function NumbersTable({
  caption,
  head,
  rows,
  open = false,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
  open?: boolean;
}) {
  return (
    <details className="mt-3 text-sm" open={open}>
      <summary className="cursor-pointer text-ember-700 underline underline-offset-4">
        Numbers: {caption}
      </summary>
      <div className="mt-2">
        <DataTable caption={caption} head={head} rows={rows} />
      </div>
    </details>
  );
}

export function DataTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
}) {
  // A wide table scrolls on its own at 375 px; the keyboard can reach and scroll it too.
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll.
    <section aria-label={caption} tabIndex={0} className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm text-stone-800">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((name, column) => (
              <th
                key={name}
                scope="col"
                className={`border-b border-stone-300 px-2 py-1 font-medium ${column > 0 ? "text-right" : ""}`}
              >
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a row's position is its identity here.
            <tr key={row} className="border-b border-stone-200">
              {cells.map((cell, column) =>
                column === 0 ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a cell's position is its column.
                  <th key={column} scope="row" className="px-2 py-1 font-normal">
                    {cell}
                  </th>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a cell's position is its column.
                  <td key={column} className="px-2 py-1 text-right tabular-nums">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** One stanza's horizontal bars: how many readers reached, echoed, saved, shared, whispered. */
export function StanzaBars({
  label,
  bars,
  max,
}: {
  label: string;
  bars: Array<{ name: string; value: number }>;
  max: number;
}) {
  const rowHeight = 10;
  const scale = Math.max(max, 1);
  return (
    <div className="flex gap-2 text-xs text-stone-700">
      <ul className="flex flex-col justify-between" aria-hidden="true">
        {bars.map((bar) => (
          <li key={bar.name} className="h-4 leading-4">
            {bar.name}
          </li>
        ))}
      </ul>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 100 ${bars.length * rowHeight}`}
        preserveAspectRatio="none"
        className="w-full flex-1"
        style={{ height: `${bars.length}rem` }}
      >
        <title>{label}</title>
        {bars.map((bar, row) => (
          <rect
            key={bar.name}
            x={0}
            y={row * rowHeight + 2}
            width={Math.max((bar.value / scale) * 100, bar.value > 0 ? 1 : 0)}
            height={rowHeight - 4}
            className={row === 0 ? "fill-ember-700" : "fill-stone-500"}
          />
        ))}
      </svg>
      <ul className="flex flex-col justify-between text-right tabular-nums" aria-hidden="true">
        {bars.map((bar) => (
          <li key={bar.name} className="h-4 leading-4">
            {numberFormat.format(bar.value)}
          </li>
        ))}
      </ul>
    </div>
  );
}
