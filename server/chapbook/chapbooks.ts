import { asc, eq, inArray } from "drizzle-orm";
import * as paths from "../../common/paths.ts";
import type { Chapbook, ChapbookInput } from "../../common/schemas/chapbooks.ts";
import { isAdmin } from "../../common/session.ts";
import { slugFromTitle } from "../../common/slug.ts";
import type { Actor, AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, invalid, isUniqueViolation, notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { chapbookPoems, chapbooks, poems } from "../db/schema.ts";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Every column but the files themselves, which only a download reads. */
const chapbookColumns = {
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

const SLUG_TAKEN = "A chapbook with this slug already exists";
const UNKNOWN_POEMS = "Choose poems from the list";

/** A download: the file, its name and its tag, or why there is none. */
export type ChapbookDownload =
  | { state: "ready"; bytes: Buffer; title: string; etag: string }
  | { state: "building" }
  | { state: "missing" };

/**
 * The poet's chapbooks (docs/product/chapbook.md): the admin's writes and reads, each of which
 * asks for the AdminActor, and the downloads, which anyone gets when the chapbook is downloadable.
 * A write queues a build; the builder (chapbook-builder.ts) makes the files in the background.
 */
export function createChapbookService({ db, now }: ServiceDeps) {
  let onQueued = () => {};

  function asChapbook(row: ChapbookRow, poemIds: number[]): Chapbook {
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

  async function poemIdsOf(ids: number[]): Promise<Map<number, number[]>> {
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

  async function read(id: number): Promise<Chapbook> {
    const [row] = await db.select(chapbookColumns).from(chapbooks).where(eq(chapbooks.id, id));
    if (!row) throw notFound("Chapbook not found");
    return asChapbook(row, (await poemIdsOf([id])).get(id) ?? []);
  }

  async function requirePoems(tx: Transaction, poemIds: number[]) {
    const found = await tx.select({ id: poems.id }).from(poems).where(inArray(poems.id, poemIds));
    if (found.length !== poemIds.length) {
      throw invalid(UNKNOWN_POEMS, { poemIds: [UNKNOWN_POEMS] });
    }
  }

  const values = (input: ChapbookInput) => ({
    slug: input.slug ?? slugFromTitle(input.title),
    title: input.title,
    subtitle: input.subtitle,
    dedication: input.dedication,
    epigraph: input.epigraph,
    acknowledgements: input.acknowledgements,
    aboutPoet: input.aboutPoet,
    trim: input.trim,
    bleed: input.bleed ?? false,
    rectoStarts: input.rectoStarts ?? false,
    downloadable: input.downloadable,
    withReadings: input.withReadings,
    coverUrl: input.coverUrl || null,
    // Every change asks for the files again.
    buildState: "queued" as const,
    buildProgress: 0,
    buildError: null,
    updatedAt: now(),
  });

  async function write(input: ChapbookInput, id?: number): Promise<number> {
    if (!(input.slug ?? slugFromTitle(input.title))) {
      throw invalid("Slug is required", { slug: ["Slug is required"] });
    }
    try {
      const written = await db.transaction(async (tx) => {
        await requirePoems(tx, input.poemIds);
        const [row] =
          id === undefined
            ? await tx
                .insert(chapbooks)
                .values({ ...values(input), createdAt: now() })
                .returning({ id: chapbooks.id })
            : await tx
                .update(chapbooks)
                .set(values(input))
                .where(eq(chapbooks.id, id))
                .returning({ id: chapbooks.id });
        if (!row) throw notFound("Chapbook not found");
        await tx.delete(chapbookPoems).where(eq(chapbookPoems.chapbookId, row.id));
        await tx
          .insert(chapbookPoems)
          .values(
            input.poemIds.map((poemId, position) => ({ chapbookId: row.id, poemId, position })),
          );
        return row.id;
      });
      onQueued();
      return written;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(SLUG_TAKEN);
      throw error;
    }
  }

  return {
    /** The builder listens here, so a write starts its build at once. */
    whenQueued(listener: () => void) {
      onQueued = listener;
    },

    async list(_admin: AdminActor): Promise<Chapbook[]> {
      const rows = await db.select(chapbookColumns).from(chapbooks).orderBy(asc(chapbooks.id));
      const ids = await poemIdsOf(rows.map((row) => row.id));
      return rows.map((row) => asChapbook(row, ids.get(row.id) ?? []));
    },

    get: (_admin: AdminActor, id: number) => read(id),

    async create(_admin: AdminActor, input: ChapbookInput): Promise<Chapbook> {
      return read(await write(input));
    },

    async update(_admin: AdminActor, id: number, input: ChapbookInput): Promise<Chapbook> {
      return read(await write(input, id));
    },

    async remove(_admin: AdminActor, id: number): Promise<void> {
      const deleted = await db
        .delete(chapbooks)
        .where(eq(chapbooks.id, id))
        .returning({ id: chapbooks.id });
      if (deleted.length === 0) throw notFound("Chapbook not found");
    },

    /**
     * A chapbook's file for `actor`: anyone's when it is downloadable, the admin's always;
     * "missing" (404) otherwise, and "building" (503) until its files are made.
     */
    async download(actor: Actor, slug: string, format: "pdf" | "epub"): Promise<ChapbookDownload> {
      const [row] = await db
        .select({
          title: chapbooks.title,
          downloadable: chapbooks.downloadable,
          buildState: chapbooks.buildState,
          builtFrom: chapbooks.builtFrom,
          file: format === "pdf" ? chapbooks.pdf : chapbooks.epub,
        })
        .from(chapbooks)
        .where(eq(chapbooks.slug, slug));
      if (!row || !(row.downloadable || isAdmin(actor))) return { state: "missing" };
      if (row.buildState !== "ready" || !row.file || !row.builtFrom) return { state: "building" };
      return {
        state: "ready",
        bytes: row.file,
        title: row.title,
        etag: `"${row.builtFrom.slice(0, 24)}-${format}"`,
      };
    },
  };
}

export type ChapbookService = ReturnType<typeof createChapbookService>;
