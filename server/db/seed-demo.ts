import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { count } from "drizzle-orm";
import sharp from "sharp";
import { addDays, dayInZone, dayToDate } from "../../common/dates.ts";
import { uploadedObjectPath } from "../../common/uploads.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { createLocalObjectStore, type ObjectStore } from "../storage/local.ts";
import type { Database, Transaction } from "./client.ts";
import { DEMO_POEMS, DEMO_TAGS } from "./demo/content.ts";
import { DEMO_BOOK, DEMO_EMBERS } from "./demo/embers-and-book.ts";
import { books, embers, emberTags, poems, poemTags, tags } from "./schema.ts";

/** Covers are 4:5, the ratio the admin upload control asks for (docs/product/admin.md). */
const COVER_WIDTH = 800;
const COVER_HEIGHT = 1000;
/** Embers cover the past 30 days and the next 7 (the admin's schedule). */
const EMBER_DAYS_BACK = 30;
const EMBER_DAYS_AHEAD = 7;
const FEATURED_EMBER_DAYS_AGO = 2;

/** An abstract cover: a gradient with a rising ember, drawn from the poem's two colours. */
async function renderCover([from, to]: [string, string], seed: number): Promise<Uint8Array> {
  const cx = 200 + ((seed * 137) % 400);
  const cy = 420 + ((seed * 89) % 380);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
    <radialGradient id="r"><stop offset="0" stop-color="#fff4dc" stop-opacity="0.9"/><stop offset="1" stop-color="#fff4dc" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <circle cx="${cx}" cy="${cy}" r="260" fill="url(#r)"/>
  <path d="M0 ${COVER_HEIGHT - 180} Q ${COVER_WIDTH / 2} ${COVER_HEIGHT - 300} ${COVER_WIDTH} ${COVER_HEIGHT - 160} V ${COVER_HEIGHT} H 0 Z" fill="#000" fill-opacity="0.18"/>
</svg>`;
  // Effort 2 of sharp's 0–6: the same size within 2 % for smooth gradients like these, and half
  // the CPU, which every first start (and every browser test's fresh site) spends on 17 covers.
  return sharp(Buffer.from(svg)).webp({ quality: 78, effort: 2 }).toBuffer();
}

/** The demo's committed readings go into storage like an upload. */
async function storeReading(store: ObjectStore, file: string) {
  const id = randomUUID();
  await store.put(`audio/${id}`, await readFile(new URL(`./demo/${file}`, import.meta.url)));
  return uploadedObjectPath("audio", id);
}

async function storeCover(store: ObjectStore, palette: [string, string], seed: number) {
  const id = randomUUID();
  await store.put(`images/${id}`, await renderCover(palette, seed));
  return uploadedObjectPath("images", id);
}

/**
 * Fills a database with the demo poems, tags, embers and book (original writing), each marked as
 * sample content the poet can remove in one step (docs/decisions/058-sample-content.md). Returns false
 * and changes nothing when the database already has content.
 */
export async function seedDemo(db: Database, config: Config, logger: Logger): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(poems);
  if ((existing?.n ?? 0) > 0) return false;

  const store = createLocalObjectStore(config.dataDir);
  const covers = await Promise.all(
    DEMO_POEMS.map((poem, index) => storeCover(store, poem.coverPalette, index + 1)),
  );
  const bookCover = await storeCover(store, ["#7f3511", "#2b1a12"], 99);
  const readings = await Promise.all(
    DEMO_POEMS.map((poem) => poem.reading && storeReading(store, poem.reading.file)),
  );
  const today = dayInZone(config.siteTimezone);
  const now = Date.now();

  await db.transaction(async (tx) => {
    const tagRows = await tx
      .insert(tags)
      .values(DEMO_TAGS.map((name) => ({ name, isSample: true })))
      .returning();
    const tagId = new Map(tagRows.map((tag) => [tag.name, tag.id]));
    const idOf = (name: string) => {
      const id = tagId.get(name);
      if (id === undefined) throw new Error(`Demo content names an unknown tag: ${name}`);
      return id;
    };

    const poemRows = await tx
      .insert(poems)
      .values(
        DEMO_POEMS.map((poem, index) => {
          const createdAt = new Date(now - poem.daysAgo * 86_400_000);
          return {
            title: poem.title,
            slug: poem.slug,
            stanzas: poem.stanzas,
            coverUrl: covers[index],
            coverAlt: poem.coverAlt,
            coverProvider: "object-storage" as const,
            coverWidth: COVER_WIDTH,
            coverHeight: COVER_HEIGHT,
            audioUrl: readings[index] ?? null,
            stanzaTimings: poem.reading?.stanzaTimings ?? null,
            readingDuration: poem.reading?.duration ?? null,
            // Back-dated as a whole: a poem written then came out then, not at seeding.
            createdAt,
            updatedAt: createdAt,
            publishAt: createdAt,
            isSample: true,
          };
        }),
      )
      .returning({ id: poems.id });
    await tx
      .insert(poemTags)
      .values(
        DEMO_POEMS.flatMap((poem, index) =>
          poem.tags.map((name) => ({ poemId: poemRows[index]?.id as number, tagId: idOf(name) })),
        ),
      );

    await insertDemoEmbers(tx, today, now, idOf);

    await tx.insert(books).values({
      title: DEMO_BOOK.title,
      slug: DEMO_BOOK.slug,
      blurb: DEMO_BOOK.blurb,
      coverUrl: bookCover,
      buyUrl: DEMO_BOOK.buyUrl,
      pages: DEMO_BOOK.pages,
      order: 1,
      isSample: true,
    });
  });
  logger.info({ poems: DEMO_POEMS.length, tags: DEMO_TAGS.length }, "seeded demo content");
  return true;
}

/**
 * The demo's embers, one a day from EMBER_DAYS_BACK days ago to EMBER_DAYS_AHEAD days ahead, so
 * the schedule and the archive both have some; one of them featured.
 */
async function insertDemoEmbers(
  tx: Transaction,
  today: string,
  now: number,
  idOf: (tagName: string) => number,
) {
  const emberDays = Array.from({ length: EMBER_DAYS_BACK + EMBER_DAYS_AHEAD + 1 }, (_, i) =>
    addDays(today, i - EMBER_DAYS_BACK),
  );
  const featuredDay = addDays(today, -FEATURED_EMBER_DAYS_AGO);
  const emberRows = await tx
    .insert(embers)
    .values(
      emberDays.map((day, index) => {
        const ember = DEMO_EMBERS[index % DEMO_EMBERS.length];
        const isFeatured = day === featuredDay;
        return {
          text: ember?.text ?? "",
          date: dayToDate(day),
          isFeatured,
          featuredAt: isFeatured ? new Date(now) : null,
          isSample: true,
        };
      }),
    )
    .returning({ id: embers.id });
  const emberTagRows = emberDays.flatMap((_, index) =>
    (DEMO_EMBERS[index % DEMO_EMBERS.length]?.tags ?? []).map((name) => ({
      emberId: emberRows[index]?.id as number,
      tagId: idOf(name),
    })),
  );
  if (emberTagRows.length > 0) await tx.insert(emberTags).values(emberTagRows);
}
