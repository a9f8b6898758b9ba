import type { Context, MiddlewareHandler } from "hono";
import * as otherRoutes from "../../common/other-routes.ts";
import * as pages from "../../common/pages.ts";
import { matcherOf } from "../../common/path-builder.ts";
import type { Poem } from "../../common/schemas/poems.ts";
import { readingExcerpt } from "../../common/stanza-timings.ts";
import type { Config } from "../config.ts";
import type { PoemService } from "../content/poems.ts";
import { ServiceError } from "../core/errors.ts";
import { RATE_LIMITS, RateLimitedError, type RateLimiter } from "../core/rate-limit.ts";
import { varyOnAccept, wantsActivityJson } from "../http/activity-negotiation.ts";
import { apiBodyLimit } from "../http/body-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AppEnv } from "../http/env.ts";
import { isConnectionError } from "../http/errors.ts";
import { routesAt } from "../http/routes.ts";
import type { Logger } from "../logger.ts";
import type { AudioService } from "../media/audio.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import type { Fediverse } from "./federation.ts";
import { readPoemObjectUrl } from "./object-urls.ts";
import { poemArticle, type StanzaReading, stanzaNote } from "./objects.ts";

const isPoemPage = matcherOf(pages.poem);
const isSharePage = matcherOf(pages.sharePoem);

/**
 * Where the fediverse meets the HTTP app (docs/decisions/045-federation-layer.md). Fedify answers
 * the declared routes itself, signatures included; around the inboxes this layer adds what
 * Fedify leaves to the site: a size cap (413) and server blocks (403), decided before the body is
 * parsed or a key is fetched, and the rates (429): a server spends its own budget only with
 * activities its key verified, and what did not verify is charged to the sending address
 * (docs/decisions/065-inbox-limits-by-who-proved-it.md).
 */

/** An inbox body larger than this is refused unread; Mastodon's activities are a few KB. */
const INBOX_BODY_LIMIT_BYTES = 256 * 1024;

/** A stanza's share page, whatever its query says. */
const STANZA_PAGE = /^\/share\/poem\/[^/]+\/?$/;

/** What an activity not signed by its actor is answered, as every refusal of a caller here. */
const UNSIGNED = "Unauthorized: the activity is not signed by its actor";

const json = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ message }), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });

/** The host of the key an inbox POST is signed with (draft-cavage or RFC 9421), if it names one. */
function signingServer(c: Context): string | null {
  const header = `${c.req.header("signature") ?? ""} ${c.req.header("signature-input") ?? ""}`;
  const keyId = /keyid="([^"]+)"/i.exec(header)?.[1];
  if (!keyId) return null;
  try {
    return new URL(keyId).host.toLowerCase();
  } catch {
    return null;
  }
}

export function fediverseRoutes(
  { fediverse, rateLimiter }: { fediverse: Fediverse; rateLimiter: RateLimiter },
  { isEnabled, logger, trustProxy }: { isEnabled: boolean; logger: Logger; trustProxy: number },
) {
  const federationAnswer = (c: Context<AppEnv>) =>
    isEnabled ? federate(c) : json(404, "Not found");
  /**
   * NodeInfo as its 2.1 schema has it: Fedify adds a `$schema` property, which that schema's
   * `additionalProperties: false` refuses, so a strict validator would reject the document.
   */
  const nodeInfoAnswer = async (c: Context<AppEnv>) => {
    const answer = await federationAnswer(c);
    if (answer.status !== 200) return answer;
    const { $schema: _, ...nodeInfo } = (await answer.json()) as Record<string, unknown>;
    const headers = new Headers(answer.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(nodeInfo), { status: 200, headers });
  };
  // An activity whose JSON-LD cannot be read (a context nobody serves, a malformed document) is
  // the sender's mistake: 400, never a 5xx; a database away is still the error handler's 503.
  const receive = async (c: Context<AppEnv>) => {
    try {
      return await federationAnswer(c);
    } catch (error) {
      if (isConnectionError(error)) throw error;
      logger.info({ err: error, path: c.req.path }, "fediverse activity could not be read");
      return json(400, "The activity could not be read");
    }
  };
  const federate = (c: Context<AppEnv>) =>
    fediverse.federation.fetch(c.req.raw, {
      contextData: undefined,
      onNotFound: () => json(404, "Not found"),
      // A browser opening the actor's address is shown the site.
      onNotAcceptable: () =>
        new Response(null, { status: 302, headers: { Location: "/", Vary: "Accept" } }),
      onUnauthorized: () => json(401, UNSIGNED),
    });

  const refusalOnly = (error: unknown) => {
    if (error instanceof RateLimitedError) return error;
    throw error;
  };
  /** A post that proved nothing is charged to its address: 401 within its budget, 429 past it. */
  const unverifiedFrom = async (address: string) => {
    await rateLimiter.consume(RATE_LIMITS.fediverseInboxUnverifiedPerIp, address);
    return json(401, UNSIGNED);
  };
  const inboxGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!isEnabled) return json(404, "Not found");
    const address = clientAddress(c, trustProxy);
    const server = signingServer(c);
    if (!server) return unverifiedFrom(address);
    if (await fediverse.isServerBlocked(server)) {
      return json(403, "This server is blocked here");
    }
    // Only refused here once its budget is spent; spent below, by what its key verified.
    await rateLimiter.check(RATE_LIMITS.fediverseInboxPerServer, server);
    // An address that spent its budget of unproven posts is heard only with a key already held.
    const spent = await rateLimiter
      .check(RATE_LIMITS.fediverseInboxUnverifiedPerIp, address)
      .then(() => null, refusalOnly);
    if (spent && !(await fediverse.signedByKnownKey(c.req.raw.clone()))) throw spent;
    await next();
    const { status } = c.res;
    if (status === 401) c.res = await unverifiedFrom(address);
    else if (status >= 400 && status < 500) {
      await rateLimiter.consume(RATE_LIMITS.fediverseInboxUnverifiedPerIp, address);
    } else if (status >= 200 && status < 300) {
      await rateLimiter
        .consume(RATE_LIMITS.fediverseInboxPerServer, server)
        // This activity was taken; the server's next one is refused by the check above.
        .catch(refusalOnly);
    }
  };
  const bodyLimit = apiBodyLimit(INBOX_BODY_LIMIT_BYTES);

  return routesAt<AppEnv>("/")
    .route(otherRoutes.webfinger, federationAnswer)
    .route(otherRoutes.nodeInfoLinks, federationAnswer)
    .route(otherRoutes.nodeInfo, nodeInfoAnswer)
    .route(otherRoutes.fediverseActor, federationAnswer)
    .route(otherRoutes.fediverseOutbox, federationAnswer)
    .route(otherRoutes.fediverseFollowers, federationAnswer)
    .route(otherRoutes.fediverseInbox, bodyLimit, inboxGuard, receive)
    .route(otherRoutes.fediverseSharedInbox, bodyLimit, inboxGuard, receive).router;
}

/** An uploaded reading's address; its type is read from its first bytes. */
const STORED_AUDIO = /^\/objects\/audio\/([A-Za-z0-9_-]+)$/;
/** Another site's reading: its type by its name, as the poem form accepts them. */
const AUDIO_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
};

/**
 * Content negotiation on the pages that are objects (docs/product/fediverse.md): a poem's page
 * and a stanza's share address answer their `Article` or `Note` to a client that asks for
 * ActivityStreams, and the page to everyone else, both saying they vary with Accept. What may
 * be seen is the poem service's rule, as for readers: a draft or a scheduled poem is 404.
 */
export function activityObjects(
  {
    fediverse,
    poems,
    siteSettings,
    audio,
  }: {
    fediverse: Fediverse;
    poems: PoemService;
    siteSettings: SiteSettingsService;
    audio: AudioService;
  },
  config: Config,
): MiddlewareHandler<AppEnv> {
  /** A stanza's part of the reading for its Note, when the poet allows it (decision 073). */
  async function stanzaReading(poem: Poem, index: number): Promise<StanzaReading | null> {
    if (!(await siteSettings.view()).stanzaNotesCarryReading) return null;
    const excerpt = readingExcerpt(poem, index);
    if (!excerpt || !poem.audioUrl) return null;
    const url = new URL(excerpt.url, config.publicUrl);
    const storedId = STORED_AUDIO.exec(poem.audioUrl)?.[1];
    const mediaType = storedId
      ? ((await audio.getAudio(storedId))?.contentType ?? null)
      : (AUDIO_TYPES[/\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase() ?? ""] ?? null);
    return { url, mediaType, start: excerpt.start, end: excerpt.end };
  }

  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const path = c.req.path;
    if (!isPoemPage(path) && !isSharePage(path)) return next();
    // Read on PUBLIC_URL: the object's id is there, whatever Host the request came in with.
    const asked = new URL(c.req.url);
    const named = readPoemObjectUrl(
      config.publicUrl,
      new URL(`${asked.pathname}${asked.search}`, config.publicUrl).href,
    );
    const wantsObject = wantsActivityJson(c.req.header("accept"));
    // A share address with no stanza index, or a bad one, names no object: never the page's HTML
    // to a client that asked for ActivityStreams.
    const isShareAddress = STANZA_PAGE.test(path);
    if (!named && !isShareAddress) return next();
    if (!named && wantsObject) return json(404, "Not found", { Vary: "Accept" });
    if (!named || !wantsObject) {
      await next();
      c.res.headers.set("Vary", varyOnAccept(c.res.headers.get("Vary")));
      return;
    }
    const notFound = () => json(404, "Not found", { Vary: "Accept" });
    // Not found is the poem service's answer for anything readers may not see; a database away
    // stays the error handler's.
    const poem = await poems.getPoem("anonymous", named.slug).catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 404) return null;
      throw error;
    });
    if (!poem) return notFound();
    const addressing = fediverse.addressing();
    let object: ReturnType<typeof poemArticle> | ReturnType<typeof stanzaNote>;
    if (named.stanzaIndex === null) object = poemArticle(addressing, poem);
    else if (named.stanzaIndex < poem.stanzas.length) {
      object = stanzaNote(
        addressing,
        poem,
        named.stanzaIndex,
        await stanzaReading(poem, named.stanzaIndex),
      );
    } else return notFound();
    const document = await object.toJsonLd({
      format: "compact",
      contextLoader: fediverse.contextLoader,
    });
    return new Response(JSON.stringify(document), {
      headers: {
        "Content-Type": "application/activity+json",
        Vary: "Accept",
        "Cache-Control": "public, max-age=60",
      },
    });
  };
}
