import type {
  ActorDispatcher,
  CollectionDispatcher,
  NodeInfoDispatcher,
  RequestContext,
} from "@fedify/fedify";
import { type Activity, Create, Endpoints, Image, Person, PUBLIC_COLLECTION } from "@fedify/vocab";
import { count } from "drizzle-orm";
import packageJson from "../../package.json" with { type: "json" };
import type { PoemService } from "../content/poems.ts";
import type { Database } from "../db/client.ts";
import { poems } from "../db/schema.ts";
import { publishedPoems } from "../db/visibility.ts";
import { escapeMarkup } from "../escape.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import { type ObjectAddressing, poemArticle } from "./objects.ts";
import { sentCreateIds } from "./publishing.ts";

/**
 * What anyone may read of the site's actor (docs/decisions/045-federation-layer.md): the actor
 * document, its outbox of published poems, and NodeInfo. server/fediverse/federation.ts serves
 * each at its path.
 */

const OUTBOX_PAGE_SIZE = 20;

export interface ActorDocumentDeps {
  db: Database;
  now: () => Date;
  poems: PoemService;
  siteSettings: SiteSettingsService;
  publicUrl: URL;
  /** The site actor's identifier (FEDIVERSE_HANDLE). */
  handle: string;
  addressing: () => ObjectAddressing;
}

/** The site as a Person: its title, the poet's bio and portrait, its collections and keys. */
export function siteActor(deps: ActorDocumentDeps): ActorDispatcher<void> {
  const { handle, publicUrl } = deps;
  return async (ctx, identifier) => {
    if (identifier !== handle) return null;
    const [site, keys] = await Promise.all([
      deps.siteSettings.view(),
      ctx.getActorKeyPairs(identifier),
    ]);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: site.siteTitle,
      summary: site.poetBio
        ? site.poetBio
            .split(/\n{2,}/)
            .map((paragraph) => `<p>${escapeMarkup(paragraph).replace(/\n/g, "<br>")}</p>`)
            .join("")
        : null,
      icon: site.portraitUrl ? new Image({ url: new URL(site.portraitUrl, publicUrl) }) : null,
      url: new URL("/", publicUrl),
      inbox: ctx.getInboxUri(identifier),
      outbox: ctx.getOutboxUri(identifier),
      followers: ctx.getFollowersUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      manuallyApprovesFollowers: false,
      discoverable: true,
      indexable: true,
      publicKey: keys[0]?.cryptographicKey ?? null,
      assertionMethods: keys.map((key) => key.multikey),
    });
  };
}

/** How many poems readers can see now: the outbox's size, and NodeInfo's local posts. */
export async function publishedCount(deps: Pick<ActorDocumentDeps, "db" | "now">) {
  const [row] = await deps.db.select({ n: count() }).from(poems).where(publishedPoems(deps.now()));
  return row?.n ?? 0;
}

/** A page of the outbox: a Create per published poem, newest first. */
export function outboxPage(
  deps: ActorDocumentDeps,
): CollectionDispatcher<Activity, RequestContext<void>, void, void> {
  const { db, handle } = deps;
  return async (ctx, identifier, cursor) => {
    if (identifier !== handle || cursor === null) return null;
    const offset = /^\d{1,9}$/.test(cursor) ? Number(cursor) : 0;
    const page = await deps.poems.listPoems({ limit: OUTBOX_PAGE_SIZE + 1, offset });
    const objects = deps.addressing();
    const shown = page.slice(0, OUTBOX_PAGE_SIZE);
    // The Create followers were sent keeps its id here; a poem sent to nobody has its own.
    const sent = await sentCreateIds(
      db,
      shown.map((poem) => poem.id),
    );
    const items = shown.map((poem) => {
      const article = poemArticle(objects, poem);
      return new Create({
        id: new URL(sent.get(poem.id) ?? new URL("#create", article.id ?? undefined).href),
        actor: ctx.getActorUri(identifier),
        object: article,
        to: PUBLIC_COLLECTION,
        cc: objects.followersUrl,
        published: article.published,
      });
    });
    return {
      items,
      nextCursor: page.length > OUTBOX_PAGE_SIZE ? String(offset + OUTBOX_PAGE_SIZE) : null,
      prevCursor: offset > 0 ? String(Math.max(0, offset - OUTBOX_PAGE_SIZE)) : null,
    };
  };
}

/** The NodeInfo document: one user, the published poems as its posts, no sign-ups. */
export function nodeInfo(deps: ActorDocumentDeps): NodeInfoDispatcher<void> {
  return async () => ({
    software: { name: packageJson.name, version: packageJson.version, homepage: deps.publicUrl },
    protocols: ["activitypub"],
    usage: {
      users: { total: 1, activeMonth: 1, activeHalfyear: 1 },
      localPosts: await publishedCount(deps),
      localComments: 0,
    },
    openRegistrations: false,
  });
}
