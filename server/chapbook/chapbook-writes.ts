import { eq, inArray } from "drizzle-orm";
import type { Chapbook, ChapbookInput } from "../../common/schemas/chapbooks.ts";
import { slugFromTitle } from "../../common/slug.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, invalid, isUniqueViolation, notFound } from "../core/errors.ts";
import type { Transaction } from "../db/client.ts";
import { chapbookPoems, chapbooks, poems } from "../db/schema.ts";
import { readChapbook } from "./chapbook-rows.ts";

const SLUG_TAKEN = "A chapbook with this slug already exists";
const UNKNOWN_POEMS = "Choose poems from the list";

async function requirePoems(tx: Transaction, poemIds: number[]) {
  const found = await tx.select({ id: poems.id }).from(poems).where(inArray(poems.id, poemIds));
  if (found.length !== poemIds.length) {
    throw invalid(UNKNOWN_POEMS, { poemIds: [UNKNOWN_POEMS] });
  }
}

const valuesOf = (now: ServiceDeps["now"], input: ChapbookInput) => ({
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

async function writeChapbook(
  { db, now }: Pick<ServiceDeps, "db" | "now">,
  onQueued: () => void,
  input: ChapbookInput,
  id?: number,
): Promise<number> {
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
              .values({ ...valuesOf(now, input), createdAt: now() })
              .returning({ id: chapbooks.id })
          : await tx
              .update(chapbooks)
              .set(valuesOf(now, input))
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

/**
 * The poet's writes of chapbooks; `onQueued` hears of each build a create or an update queues.
 */
export function chapbookWrites(deps: Pick<ServiceDeps, "db" | "now">, onQueued: () => void) {
  const { db } = deps;
  return {
    async create(_admin: AdminActor, input: ChapbookInput): Promise<Chapbook> {
      return readChapbook(db, await writeChapbook(deps, onQueued, input));
    },

    async update(_admin: AdminActor, id: number, input: ChapbookInput): Promise<Chapbook> {
      return readChapbook(db, await writeChapbook(deps, onQueued, input, id));
    },

    async remove(_admin: AdminActor, id: number): Promise<void> {
      const deleted = await db
        .delete(chapbooks)
        .where(eq(chapbooks.id, id))
        .returning({ id: chapbooks.id });
      if (deleted.length === 0) throw notFound("Chapbook not found");
    },
  };
}
