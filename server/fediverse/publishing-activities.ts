import { randomUUID } from "node:crypto";
import { signObject } from "@fedify/fedify";
import { type Activity, Create, Delete, PUBLIC_COLLECTION, Tombstone, Update } from "@fedify/vocab";
import { Temporal as TemporalPolyfill } from "@js-temporal/polyfill";
import { eq, sql } from "drizzle-orm";
import { poemColumns, withTags } from "../content/poems.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { fediversePoemState, poems, poemTags } from "../db/schema.ts";
import { poemObjectUrl } from "./object-urls.ts";
import { poemArticle } from "./objects.ts";
import type { PublishingIdentity } from "./publishing.ts";

/**
 * What publishing (server/fediverse/publishing.ts) sends for a poem: the Create, Update or
 * Delete its plan calls for, signed with the actor's proof.
 */

/** The title and stanzas, hashed as the database sees them: what an Update is sent for. */
export const contentHash = sql<string>`md5(${poems.title} || chr(10) || ${poems.stanzas}::text)`;

/**
 * Fedify's types name the built-in Temporal (lib esnext.temporal) while it runs on the polyfill,
 * which Node 24 still needs: an instant made by the polyfill, typed as the built-in.
 */
const instant = (date: Date) =>
  TemporalPolyfill.Instant.fromEpochMilliseconds(date.getTime()) as unknown as Temporal.Instant;

/** What one poem's followers are to be sent, as the plan of server/fediverse/publishing.ts says. */
export type Plan =
  | { kind: "create" | "update" | "move"; poemId: number }
  | { kind: "delete"; poemId: number; objectId: string; deletedAt: Date | null };

/** An activity as its body is stored and sent: with the actor's integrity proof, compacted. */
export async function activityJson(
  identity: PublishingIdentity,
  activity: Activity,
): Promise<Record<string, unknown>> {
  const signed = identity.proofSigner
    ? await signObject(activity, identity.proofSigner.privateKey, identity.proofSigner.keyId, {
        contextLoader: identity.contextLoader,
      })
    : activity;
  return (await signed.toJsonLd({
    format: "compact",
    contextLoader: identity.contextLoader,
  })) as Record<string, unknown>;
}

/** Builds the activities for one poem's plan, re-read inside its lock. */
export async function activitiesFor(
  deps: Pick<ServiceDeps, "config">,
  tx: Database,
  identity: PublishingIdentity,
  step: Plan,
  asOf: Date,
): Promise<{
  activities: { type: "Create" | "Update" | "Delete"; activity: Activity }[];
  state: typeof fediversePoemState.$inferInsert;
}> {
  const { addressing } = identity;
  const activityUrl = (objectId: string) => new URL(`${objectId}#activity-${randomUUID()}`);
  const envelope = {
    actor: addressing.actorUrl,
    to: PUBLIC_COLLECTION,
    cc: addressing.followersUrl,
  };
  // The Tombstone says when the poem was deleted; a poem withdrawn otherwise (unpublished,
  // given a new address, purged unseen) is gone as of now.
  const deletion = (objectId: string, deletedAt: Date | null) =>
    new Delete({
      ...envelope,
      id: activityUrl(objectId),
      object: new Tombstone({ id: new URL(objectId), deleted: instant(deletedAt ?? asOf) }),
      published: instant(asOf),
    });
  if (step.kind === "delete") {
    return {
      activities: [{ type: "Delete", activity: deletion(step.objectId, step.deletedAt) }],
      state: {
        poemId: step.poemId,
        objectId: step.objectId,
        slug: null,
        state: "deleted",
        contentHash: null,
      },
    };
  }
  const [row] = await tx
    .select({ ...poemColumns, hash: contentHash, sentObjectId: fediversePoemState.objectId })
    .from(poems)
    .leftJoin(fediversePoemState, eq(fediversePoemState.poemId, poems.id))
    .where(eq(poems.id, step.poemId));
  if (!row) throw new Error(`poem ${step.poemId} vanished while it was being federated`);
  const [poem] = await withTags(tx, [row], poemTags);
  if (!poem) throw new Error(`poem ${step.poemId} vanished while it was being federated`);
  const article = poemArticle(addressing, poem);
  const objectId = poemObjectUrl(deps.config.publicUrl, poem.slug).href;
  const creation = new Create({
    ...envelope,
    id: activityUrl(objectId),
    object: article,
    published: instant(poem.publishAt > asOf ? asOf : poem.publishAt),
  });
  const state = {
    poemId: poem.id,
    objectId,
    slug: poem.slug,
    state: "created" as const,
    contentHash: row.hash,
  };
  if (step.kind === "update") {
    // Mastodon applies an edit only when the object says when it was edited.
    const edited = article.updated ? article : article.clone({ updated: instant(asOf) });
    const update = new Update({
      ...envelope,
      id: activityUrl(objectId),
      object: edited,
      updated: edited.updated,
    });
    return { activities: [{ type: "Update", activity: update }], state };
  }
  if (step.kind === "move" && row.sentObjectId) {
    return {
      activities: [
        { type: "Delete", activity: deletion(row.sentObjectId, null) },
        { type: "Create", activity: creation },
      ],
      state,
    };
  }
  return { activities: [{ type: "Create", activity: creation }], state };
}
