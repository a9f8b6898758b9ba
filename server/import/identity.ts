import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { redirectKey } from "../../common/site-pages.ts";
import type { Database, Transaction } from "../db/client.ts";
import { importItems, importRedirects, poems, type StoredParsedImport } from "../db/schema.ts";
import { whyNotRedirectable } from "./redirect-reasons.ts";
import type { ImportSource } from "./types.ts";

/**
 * Which poems of an export an earlier import brought in, and which old addresses each poem will
 * keep (docs/decisions/060-an-imported-poem-is-one-per-site.md).
 */

export type Executor = Database | Transaction;
export type StoredPoem = StoredParsedImport["poems"][number];

/** A JSON array of text as a set a query can read, the same on both drivers. */
export const textSet = (values: string[]) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** A poem's identity as one text: its site and its id there (a newline never occurs in either). */
export const itemKey = (poem: Pick<StoredPoem, "site" | "sourceId">) =>
  `${poem.site ?? ""}\n${poem.sourceId}`;

/** The poem as imported, hashed: what a later export of the same site is compared with. */
export function fingerprintOf(poem: StoredPoem): string {
  const what = [poem.title, poem.stanzas, poem.tags, poem.state, poem.publishAt];
  return createHash("sha256").update(JSON.stringify(what)).digest("hex").slice(0, 32);
}

export interface ImportedItem {
  poemId: number;
  /** Null for a row from before fingerprints were kept: whether it changed is unknown. */
  fingerprint: string | null;
  /** Matched by the platform's post number (a row from before per-site identity). */
  legacy: boolean;
}

/**
 * The poems of `list` an earlier import of the same source brought in, by their key. A row from
 * before per-site identity (site "", the post number) counts only when its poem has the same
 * title: a post number alone is shared by every site (each WordPress site has a post 1).
 */
export async function findImported(
  db: Executor,
  source: ImportSource,
  list: StoredPoem[],
): Promise<Map<string, ImportedItem>> {
  const found = new Map<string, ImportedItem>();
  if (list.length === 0) return found;
  const rows = await db
    .select({
      site: importItems.site,
      sourceId: importItems.sourceId,
      poemId: importItems.poemId,
      fingerprint: importItems.fingerprint,
    })
    .from(importItems)
    .where(
      and(
        eq(importItems.source, source),
        sql`${importItems.site} || chr(10) || ${importItems.sourceId} in ${textSet(list.map(itemKey))}`,
      ),
    );
  for (const row of rows) {
    found.set(`${row.site}\n${row.sourceId}`, { ...row, legacy: false });
  }
  const legacyIds = list.flatMap((poem) =>
    poem.legacyId && poem.legacyId !== poem.sourceId && !found.has(itemKey(poem))
      ? [poem.legacyId]
      : [],
  );
  if (legacyIds.length === 0) return found;
  const legacy = await db
    .select({ sourceId: importItems.sourceId, poemId: importItems.poemId, title: poems.title })
    .from(importItems)
    .innerJoin(poems, eq(poems.id, importItems.poemId))
    .where(
      and(
        eq(importItems.source, source),
        eq(importItems.site, ""),
        inArray(importItems.sourceId, legacyIds),
      ),
    );
  for (const poem of list) {
    const row = legacy.find((item) => item.sourceId === poem.legacyId && item.title === poem.title);
    if (row && !found.has(itemKey(poem))) {
      found.set(itemKey(poem), { poemId: row.poemId, fingerprint: null, legacy: true });
    }
  }
  return found;
}

export interface RedirectPlan {
  redirects: string[];
  notRedirected: { path: string; reason: string }[];
}

/**
 * Which old addresses each poem will keep (docs/product/import.md): not this site's own, not one
 * an earlier import gave another poem (it keeps it), and within the export the first poem that
 * claims an address keeps it. Answered in the order of `list`.
 */
export async function planRedirects(
  db: Executor,
  list: StoredPoem[],
  imported: Map<string, ImportedItem>,
): Promise<RedirectPlan[]> {
  const keys = [
    ...new Set(list.flatMap((poem) => poem.oldPaths.flatMap((path) => redirectKey(path) ?? []))),
  ];
  const held = new Map<string, { poemId: number; title: string }>();
  if (keys.length > 0) {
    const rows = await db
      .select({ path: importRedirects.path, poemId: poems.id, title: poems.title })
      .from(importRedirects)
      .innerJoin(poems, eq(poems.id, importRedirects.poemId))
      .where(sql`${importRedirects.path} in ${textSet(keys)}`);
    for (const row of rows) held.set(row.path, row);
  }
  const claimed = new Map<string, { at: number; title: string }>();
  return list.map((poem, at) => {
    const plan: RedirectPlan = { redirects: [], notRedirected: [] };
    const own = imported.get(itemKey(poem))?.poemId;
    for (const path of new Set(poem.oldPaths)) {
      const key = redirectKey(path);
      const why = whyNotRedirectable(path);
      const earlier = key === undefined ? undefined : held.get(key);
      const before = key === undefined ? undefined : claimed.get(key);
      if (why !== null) plan.notRedirected.push({ path, reason: why });
      else if (earlier && earlier.poemId !== own) {
        plan.notRedirected.push({
          path,
          reason: `“${earlier.title}”, imported earlier, keeps this address`,
        });
      } else if (before !== undefined && before.at !== at) {
        plan.notRedirected.push({
          path,
          reason: `“${before.title}”, earlier in this export, keeps this address`,
        });
      } else {
        plan.redirects.push(path);
        if (key !== undefined) claimed.set(key, { at, title: poem.title });
      }
    }
    return plan;
  });
}
