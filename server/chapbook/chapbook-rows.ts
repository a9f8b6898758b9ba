import { asc, eq, inArray } from "drizzle-orm";
import * as paths from "../../common/paths.ts";
import type { Chapbook } from "../../common/schemas/chapbooks.ts";
import { notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { chapbookPoems, chapbooks } from "../db/schema.ts";

/* A chapbook as the admin's calls answer it, after a write as after a read (chapbooks.ts). */

/** Every column but the files themselves, which only a download reads. */
export const chapbookColumns = {
  id: chapbooks.id,
  slug: chapbooks.slug,
  title: chapbooks.title,
  subtitle: chapbooks.subtitle,
  dedication: chapbooks.dedication,
  epigraph: chapbooks.epigraph,
  acknowledgements: chapbooks.acknowledgements,
  aboutPoet: chapbooks.aboutPoet,
  trim: chapbooks.trim,
  bleed: chapbooks.bleed,
  rectoStarts: chapbooks.rectoStarts,
  downloadable: chapbooks.downloadable,
  withReadings: chapbooks.withReadings,
  coverUrl: chapbooks.coverUrl,
  buildState: chapbooks.buildState,
  buildProgress: chapbooks.buildProgress,
  buildError: chapbooks.buildError,
  builtAt: chapbooks.builtAt,
  createdAt: chapbooks.createdAt,
  updatedAt: chapbooks.updatedAt,
};

type ChapbookRow = Omit<Chapbook, "poemIds" | "build" | "pdfUrl" | "epubUrl"> & {
  buildState: Chapbook["build"]["state"];
  buildProgress: number;
  buildError: string | null;
  builtAt: Date | null;
};

export function asChapbook(row: ChapbookRow, poemIds: number[]): Chapbook {
  const { buildState, buildProgress, buildError, builtAt, ...fields } = row;
  return {
    ...fields,
    poemIds,
    build: {
      state: buildState,
      progress: buildProgress,
      poemCount: poemIds.length,
      error: buildError,
      builtAt,
    },
    pdfUrl: paths.chapbookFile(row.slug, "pdf"),
    epubUrl: paths.chapbookFile(row.slug, "epub"),
  };
}

/** Each chapbook's poems, in their order in it. */
export async function poemIdsOf(db: Database, ids: number[]): Promise<Map<number, number[]>> {
  const byChapbook = new Map<number, number[]>();
  if (ids.length === 0) return byChapbook;
  const rows = await db
    .select({ chapbookId: chapbookPoems.chapbookId, poemId: chapbookPoems.poemId })
    .from(chapbookPoems)
    .where(inArray(chapbookPoems.chapbookId, ids))
    .orderBy(asc(chapbookPoems.chapbookId), asc(chapbookPoems.position));
  for (const { chapbookId, poemId } of rows) {
    byChapbook.set(chapbookId, [...(byChapbook.get(chapbookId) ?? []), poemId]);
  }
  return byChapbook;
}

export async function readChapbook(db: Database, id: number): Promise<Chapbook> {
  const [row] = await db.select(chapbookColumns).from(chapbooks).where(eq(chapbooks.id, id));
  if (!row) throw notFound("Chapbook not found");
  return asChapbook(row, (await poemIdsOf(db, [id])).get(id) ?? []);
}
