import { and, count, desc, eq, gt, gte, isNull, lte, ne, sql } from "drizzle-orm";
import { addDays, dayInZone, dayToDate } from "../../common/dates.ts";
import type { DigestContent } from "../../common/schemas/digest.ts";
import type { EmberService } from "../content/embers.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { isServiceError } from "../core/errors.ts";
import { echoes, embers, poems } from "../db/schema.ts";
import { onPoemStanzas, publishedPoems, shownEmbers } from "../db/visibility.ts";

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const TOP_ECHOED_STANZAS = 2;
const NEW_POEMS_MAX = 20;

/** A fixed sample (docs/product/digest.md), for a site with nothing of its own yet. */
export const SAMPLE_DIGEST_CONTENT: DigestContent = {
  featuredEmber: {
    text: "Even the smallest coal remembers the whole fire.",
    date: "2026-01-05T00:00:00.000Z",
  },
  topEchoedStanzas: [
    {
      poem: { title: "Lanterns in the Rain", slug: "lanterns-in-the-rain" },
      stanza: "We carried light the way the river / carries stones, / slowly, and without asking.",
      stanzaIndex: 0,
      echoCount: 42,
    },
    {
      poem: { title: "What the Kettle Knows", slug: "what-the-kettle-knows" },
      stanza: "Morning is a small bravery / repeated until it sings.",
      stanzaIndex: 2,
      echoCount: 27,
    },
  ],
  newPoems: [
    {
      title: "Letters to the Tide",
      slug: "letters-to-the-tide",
      stanzas: ["I wrote your name in salt / and the sea learned to spell it."],
    },
  ],
};

async function featuredEmber(
  emberService: EmberService,
): Promise<DigestContent["featuredEmber"] | undefined> {
  try {
    const ember = await emberService.getFeaturedEmber();
    return { text: ember.text, date: ember.date.toISOString() };
  } catch (error) {
    if (isServiceError(error) && error.status === 404) return undefined;
    throw error;
  }
}

async function topEchoedStanzas(
  deps: ServiceDeps,
  since: Date,
): Promise<DigestContent["topEchoedStanzas"]> {
  const echoCount = count(echoes.id);
  const rows = await deps.db
    .select({
      title: poems.title,
      slug: poems.slug,
      stanzas: poems.stanzas,
      stanzaIndex: echoes.stanzaIndex,
      echoCount,
    })
    .from(echoes)
    .innerJoin(poems, eq(poems.id, echoes.poemId))
    .where(
      and(
        gte(echoes.createdAt, since),
        ne(echoes.stanzaIndex, ""),
        onPoemStanzas(echoes),
        publishedPoems(deps.now()),
      ),
    )
    .groupBy(poems.id, echoes.stanzaIndex)
    .orderBy(desc(echoCount), desc(sql`max(${echoes.createdAt})`))
    .limit(TOP_ECHOED_STANZAS);
  return rows.flatMap((row) => {
    const stanzaIndex = Number(row.stanzaIndex);
    const stanza = row.stanzas[stanzaIndex];
    return stanza === undefined
      ? []
      : [
          {
            poem: { title: row.title, slug: row.slug },
            stanza,
            stanzaIndex,
            echoCount: row.echoCount,
          },
        ];
  });
}

async function newPoems(deps: ServiceDeps, since: Date): Promise<DigestContent["newPoems"]> {
  return (
    deps.db
      .select({ title: poems.title, slug: poems.slug, stanzas: poems.stanzas })
      .from(poems)
      // An imported poem is history, not news (docs/decisions/052-the-import-job.md).
      .where(and(gte(poems.publishAt, since), publishedPoems(deps.now()), isNull(poems.importedAt)))
      .orderBy(desc(poems.publishAt))
      .limit(NEW_POEMS_MAX)
  );
}

/**
 * What this week's digest would hold: the featured ember, the two most-echoed stanzas and
 * the poems of the past seven days; the spec's sample only when the site has none of it.
 */
export async function weeklyContent(
  deps: ServiceDeps & { embers: EmberService },
  now: Date,
): Promise<DigestContent> {
  const since = new Date(now.getTime() - WEEK_MS);
  const [ember, stanzas, poemsOfTheWeek] = await Promise.all([
    featuredEmber(deps.embers),
    topEchoedStanzas(deps, since),
    newPoems(deps, since),
  ]);
  if (!ember && stanzas.length === 0 && poemsOfTheWeek.length === 0) {
    return SAMPLE_DIGEST_CONTENT;
  }
  return {
    featuredEmber: ember ?? SAMPLE_DIGEST_CONTENT.featuredEmber,
    topEchoedStanzas: stanzas,
    newPoems: poemsOfTheWeek,
  };
}

/** Whether anything came out in the seven days up to `until`: a poem, an ember or an echo. */
export async function hasNewsInWeekBefore(deps: ServiceDeps, until: Date): Promise<boolean> {
  const { db, config } = deps;
  const since = new Date(until.getTime() - WEEK_MS);
  const untilDay = dayToDate(dayInZone(config.siteTimezone, until));
  const [poem, ember, echo] = await Promise.all([
    db
      .select({ id: poems.id })
      .from(poems)
      .where(
        and(
          publishedPoems(until),
          gt(poems.publishAt, since),
          lte(poems.publishAt, until),
          isNull(poems.importedAt),
        ),
      )
      .limit(1),
    db
      .select({ id: embers.id })
      .from(embers)
      .where(
        and(
          shownEmbers(until, config.siteTimezone),
          gt(embers.date, dayToDate(addDays(dayInZone(config.siteTimezone, until), -7))),
          lte(embers.date, untilDay),
        ),
      )
      .limit(1),
    db
      .select({ id: echoes.id })
      .from(echoes)
      .where(and(gt(echoes.createdAt, since), lte(echoes.createdAt, until)))
      .limit(1),
  ]);
  return poem.length + ember.length + echo.length > 0;
}
