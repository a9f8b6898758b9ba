import { asc, eq } from "drizzle-orm";
import type { Chapbook } from "../../common/schemas/chapbooks.ts";
import { isAdmin } from "../../common/session.ts";
import type { Actor, AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { chapbooks } from "../db/schema.ts";
import { asChapbook, chapbookColumns, poemIdsOf, readChapbook } from "./chapbook-rows.ts";
import { chapbookWrites } from "./chapbook-writes.ts";

/** A download: the file, its name and its tag, or why there is none. */
export type ChapbookDownload =
  | { state: "ready"; bytes: Buffer; title: string; etag: string }
  | { state: "building" }
  | { state: "missing" };

/**
 * The poet's chapbooks (docs/product/chapbook.md): the admin's writes and reads, each of which
 * asks for the AdminActor, and the downloads, which anyone gets when the chapbook is downloadable.
 * A write queues a build; the builder (builder.ts) makes the files in the background.
 */
export function createChapbookService(deps: ServiceDeps) {
  const { db } = deps;
  let onQueued = () => {};

  return {
    /** The builder listens here, so a write starts its build at once. */
    whenQueued(listener: () => void) {
      onQueued = listener;
    },

    async list(_admin: AdminActor): Promise<Chapbook[]> {
      const rows = await db.select(chapbookColumns).from(chapbooks).orderBy(asc(chapbooks.id));
      const ids = await poemIdsOf(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => asChapbook(row, ids.get(row.id) ?? []));
    },

    get: (_admin: AdminActor, id: number) => readChapbook(db, id),

    ...chapbookWrites(deps, () => onQueued()),

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
