import { sql } from "drizzle-orm";
import type { ImportPreviewPoem } from "../../common/schemas/import.ts";
import { type StoredParsedImport, subscriptions } from "../db/schema.ts";
import {
  type Executor,
  findImported,
  fingerprintOf,
  itemKey,
  planRedirects,
  textSet,
} from "./identity.ts";
import { askedSlug, claimSlug, takenSlugs } from "./slugs.ts";
import type { ParsedImport } from "./types.ts";

/*
 * What the poet reads before an import writes anything (docs/product/import.md, Preview): each
 * poem as it would be made here, and the subscribers counted.
 */

/** The parsed export as the job keeps it: dates as text, addresses lower-cased. */
export function toStored(parsed: ParsedImport): StoredParsedImport {
  return {
    source: parsed.source,
    poems: parsed.poems.map((poem) => ({
      ...poem,
      publishAt: poem.publishAt ? poem.publishAt.toISOString() : null,
    })),
    subscribers: parsed.subscribers.map((subscriber) => ({
      ...subscriber,
      email: subscriber.email.trim().toLowerCase(),
      subscribedAt: subscriber.subscribedAt ? subscriber.subscribedAt.toISOString() : null,
    })),
    skipped: parsed.skipped,
  };
}

/** The subscribers of an export that may be imported: receiving email there, valid here. */
export const isImportable = (subscriber: StoredParsedImport["subscribers"][number]) =>
  subscriber.receivingEmail && subscriber.skipReason === null;

export async function previewPoems(
  db: Executor,
  stored: StoredParsedImport,
): Promise<ImportPreviewPoem[]> {
  const imported = await findImported(db, stored.source, stored.poems);
  const plans = await planRedirects(db, stored.poems, imported);
  const asked = stored.poems.map(askedSlug);
  const taken = await takenSlugs(db, asked);
  return stored.poems.map((poem, at) => {
    const earlier = imported.get(itemKey(poem));
    const wanted = asked[at] ?? "poem";
    const slug = earlier ? wanted : claimSlug(wanted, taken);
    const plan = plans[at] ?? { redirects: [], notRedirected: [] };
    return {
      site: poem.site ?? "",
      sourceId: poem.sourceId,
      title: poem.title,
      slug,
      clashedWith: slug === wanted ? null : wanted,
      stanzas: poem.stanzas,
      tags: poem.tags,
      state: poem.state,
      publishAt: poem.publishAt ? new Date(poem.publishAt) : null,
      coverUrl: poem.coverUrl,
      oldPaths: plan.redirects,
      notRedirected: plan.notRedirected,
      audioUrl: poem.audioUrl ?? null,
      notes: poem.notes,
      alreadyImported: earlier !== undefined,
      changed:
        earlier !== undefined &&
        earlier.fingerprint !== null &&
        earlier.fingerprint !== fingerprintOf(poem),
      chosen: earlier === undefined && poem.chosen !== false,
    };
  });
}

export async function subscriberSummary(db: Executor, stored: StoredParsedImport) {
  const importable = stored.subscribers.filter(isImportable);
  const emails = [...new Set(importable.map((subscriber) => subscriber.email))];
  const existing =
    emails.length === 0
      ? 0
      : ((
          await db
            .select({ count: sql<number>`count(*)::int` })
            .from(subscriptions)
            .where(sql`${subscriptions.email} in ${textSet(emails)}`)
        )[0]?.count ?? 0);
  const reasons = new Map<string, number>();
  for (const subscriber of stored.subscribers) {
    if (isImportable(subscriber)) continue;
    const reason = subscriber.skipReason ?? "Not receiving email there";
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  return {
    found: stored.subscribers.length,
    receiving: importable.length,
    new: emails.length - existing,
    skipped: [...reasons].map(([reason, count]) => ({ reason, count })),
  };
}
