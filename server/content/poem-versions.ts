import { and, eq } from "drizzle-orm";
import type { PoemInput } from "../../common/schemas/admin.ts";
import type { AdminPoem, PoemVersion } from "../../common/schemas/poems.ts";
import { stanzaTimingsProblem } from "../../common/stanza-timings.ts";
import type { AdminActor } from "../core/actor.ts";
import { notFound } from "../core/errors.ts";
import type { Transaction } from "../db/client.ts";
import { poems, poemVersions } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { readAdminPoem } from "./admin-poem-reads.ts";
import type { ContentAdminDeps, ContentWrites } from "./content-writes.ts";
import { listVersions } from "./poem-revisions.ts";
import { revisePoem } from "./poem-writes.ts";

/*
 * A poem's earlier versions as its form lists them, and a restore (docs/product/admin.md,
 * Revisions): what a version keeps and how readers' words follow it is poem-revisions.ts.
 */

async function restorableTimings(
  tx: Transaction,
  id: number,
  stanzaTimings: number[] | null,
  stanzas: string[],
): Promise<Pick<PoemInput, "stanzaTimings">> {
  const [poem] = await tx
    .select({ audioUrl: poems.audioUrl, readingDuration: poems.readingDuration })
    .from(poems)
    .where(eq(poems.id, id));
  const fits =
    stanzaTimings &&
    poem?.audioUrl &&
    poem.readingDuration &&
    !stanzaTimingsProblem(stanzaTimings, stanzas.length, poem.readingDuration);
  return fits ? { stanzaTimings } : {};
}

/** The poem form's versions: the list, and Restore. */
export function poemVersionHistory(deps: ContentAdminDeps, { writeContent }: ContentWrites) {
  const { db } = deps;
  return {
    /** A poem's earlier versions, newest first; 404 for an unknown poem. */
    async listPoemVersions(_admin: AdminActor, id: number): Promise<PoemVersion[]> {
      const [poem] = await db
        .select({ id: poems.id })
        .from(poems)
        .where(and(eq(poems.id, id), isLive(poems)));
      if (!poem) throw notFound("Poem not found");
      return listVersions(db, id);
    },

    /**
     * Saves an earlier version's title and stanzas again, as a new version of its own: readers'
     * words set aside with its stanzas come back. 404 for a version of another poem.
     */
    async restorePoemVersion(admin: AdminActor, id: number, versionId: number): Promise<AdminPoem> {
      const slug = await writeContent(() =>
        db.transaction(async (tx) => {
          const [version] = await tx
            .select({
              title: poemVersions.title,
              stanzas: poemVersions.stanzas,
              stanzaTimings: poemVersions.stanzaTimings,
            })
            .from(poemVersions)
            .where(and(eq(poemVersions.id, versionId), eq(poemVersions.poemId, id)));
          if (!version) throw notFound("Version not found");
          const { stanzaTimings, ...restored } = version;
          // The version's timings come back with its stanzas when they still fit the reading.
          const timings = await restorableTimings(tx, id, stanzaTimings, restored.stanzas);
          return (await revisePoem(tx, admin, id, restored, timings)).slug;
        }),
      );
      return readAdminPoem(deps, slug);
    },
  };
}
