import { coverProviderOf } from "../../common/cover-image.ts";
import { redirectKey } from "../../common/site-pages.ts";
import type { Database } from "../db/client.ts";
import { importItems, type importJobs, importRedirects, poems, poemTags } from "../db/schema.ts";
import type { PreparedPoem } from "./files.ts";
import { type Executor, fingerprintOf, type ImportedItem, planRedirects } from "./identity.ts";
import { askedSlug, claimSlug, takenSlugs } from "./slugs.ts";
import { tagIdsFor } from "./tags.ts";

/*
 * What one batch of an import writes for the poems it brings, inside the batch's transaction
 * (docs/decisions/052-the-import-job.md): the poems with their tags, the items that remember
 * them, and their old addresses.
 */

type JobOfBatch = Pick<typeof importJobs.$inferSelect, "id" | "source">;

/**
 * Makes the batch's new poems, under free slugs, with their tags and the items that key them by
 * their platform's id; `markPoemsAsHistory` keeps them from followers (decision 047). Answers
 * their ids, in the order of `fresh`.
 */
export async function insertPoems(
  tx: Executor,
  batch: {
    job: JobOfBatch;
    fresh: PreparedPoem[];
    asOf: Date;
    markPoemsAsHistory: (tx: Pick<Database, "insert">, poemIds: number[]) => Promise<void>;
  },
): Promise<{ id: number }[]> {
  const { job, fresh, asOf } = batch;
  const taken = await takenSlugs(
    tx,
    fresh.map((item) => askedSlug(item.poem)),
  );
  const tagIds = await tagIdsFor(
    tx,
    fresh.flatMap((item) => item.poem.tags),
  );
  const inserted =
    fresh.length === 0
      ? []
      : await tx
          .insert(poems)
          .values(
            fresh.map(({ poem, cover, audioUrl }) => ({
              title: poem.title,
              slug: claimSlug(askedSlug(poem), taken),
              stanzas: poem.stanzas,
              audioUrl,
              draft: poem.state === "draft",
              publishAt: poem.publishAt ? new Date(poem.publishAt) : asOf,
              coverUrl: cover?.url ?? null,
              coverAlt: cover ? (poem.coverAlt ?? poem.title) : null,
              coverProvider: coverProviderOf(cover?.url ?? null),
              coverWidth: cover?.width ?? null,
              coverHeight: cover?.height ?? null,
              importedAt: asOf,
            })),
          )
          .returning({ id: poems.id });
  const links = fresh.flatMap(({ poem }, at) => {
    const poemId = inserted[at]?.id;
    if (poemId === undefined) return [];
    const tagIdsOfPoem = new Set(
      poem.tags.flatMap((name) => tagIds.get(name.trim().toLowerCase()) ?? []),
    );
    return [...tagIdsOfPoem].map((tagId) => ({ poemId, tagId }));
  });
  if (links.length > 0) await tx.insert(poemTags).values(links).onConflictDoNothing();
  await batch.markPoemsAsHistory(
    tx,
    inserted.map((row) => row.id),
  );
  if (inserted.length > 0) {
    await tx.insert(importItems).values(
      fresh.map(({ poem }, at) => ({
        source: job.source,
        site: poem.site ?? "",
        sourceId: poem.sourceId,
        fingerprint: fingerprintOf(poem),
        poemId: inserted[at]?.id ?? 0,
        jobId: job.id,
      })),
    );
  }
  return inserted;
}

/**
 * Keeps the old addresses of the batch's new poems for their 301s; answers a note for each one
 * that cannot be redirected, and why.
 */
export async function keepOldAddresses(
  tx: Executor,
  batch: {
    job: JobOfBatch;
    fresh: PreparedPoem[];
    inserted: { id: number }[];
    done: Map<string, ImportedItem>;
  },
): Promise<string[]> {
  const { job, fresh, inserted, done } = batch;
  const notes: string[] = [];
  const plans = await planRedirects(
    tx,
    fresh.map((item) => item.poem),
    done,
  );
  const redirects = fresh.flatMap(({ poem }, at) => {
    const poemId = inserted[at]?.id;
    const plan = plans[at];
    if (poemId === undefined || plan === undefined) return [];
    for (const { path, reason } of plan.notRedirected) {
      notes.push(`“${poem.title}”: its old address ${path} is not redirected. ${reason}`);
    }
    return [...new Set(plan.redirects.flatMap((path) => redirectKey(path) ?? []))].map((path) => ({
      path,
      poemId,
      jobId: job.id,
    }));
  });
  if (redirects.length > 0) {
    await tx.insert(importRedirects).values(redirects).onConflictDoNothing();
  }
  return notes;
}
