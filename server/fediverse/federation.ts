import dns from "node:dns/promises";
import { createFederation, type Federation, getAuthenticatedDocumentLoader } from "@fedify/fedify";
import {
  type DocumentLoader,
  getDocumentLoader,
  preloadedContexts,
  UrlError,
} from "@fedify/vocab-runtime";
import * as otherRoutes from "../../common/other-routes.ts";
import { pathTo, uriTemplateOf } from "../../common/path-builder.ts";
import type { Config } from "../config.ts";
import type { PoemService } from "../content/poems.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { isPublicAddress } from "../media/public-address.ts";
import type { SiteSettingsService } from "../settings/site-settings.ts";
import { nodeInfo, outboxPage, publishedCount, siteActor } from "./actor-documents.ts";
import { serverBlockCheck } from "./blocks.ts";
import { followerCount } from "./followers.ts";
import { type InboxDeps, type InboxReactions, prepareSenderRead } from "./inbox/context.ts";
import { listenToActivities } from "./inbox/listeners.ts";
import { actorKeyPairs } from "./keys.ts";
import { knownKeyCheck } from "./known-keys.ts";
import { createKvStore } from "./kv-store.ts";
import { createMessageQueue } from "./message-queue.ts";
import type { ObjectAddressing } from "./objects.ts";
import { rememberPublicKeys } from "./remembered-keys.ts";

/**
 * The site as one ActivityPub actor, through Fedify (docs/decisions/045-federation-layer.md):
 * WebFinger, the actor, its outbox of published poems, its followers' count, NodeInfo, and the
 * inbox, whose signatures Fedify verifies before any handler runs. Everything it keeps lives on
 * our schema (decision 044), so every instance answers alike.
 */

/** Where the actor's documents live on the site. */
export const FEDIVERSE_PATHS = {
  actor: uriTemplateOf(otherRoutes.fediverseActor.path),
  inbox: uriTemplateOf(otherRoutes.fediverseInbox.path),
  sharedInbox: uriTemplateOf(otherRoutes.fediverseSharedInbox.path),
  outbox: uriTemplateOf(otherRoutes.fediverseOutbox.path),
  followers: uriTemplateOf(otherRoutes.fediverseFollowers.path),
  nodeInfo: uriTemplateOf(otherRoutes.nodeInfo.path),
} as const;

export interface FediverseDeps {
  db: Database;
  config: Config;
  logger: Logger;
  now: () => Date;
  poems: PoemService;
  siteSettings: SiteSettingsService;
  reactions: InboxReactions;
  /** Told of each new follower (insights read their servers again). */
  onFollower?: () => Promise<void>;
}

/**
 * Fetches of remote documents (actors, keys, notes) reach only public addresses: every address a
 * host resolves to must pass the same rule as image URLs (server/media/public-address.ts),
 * before Fedify's own check, unless FEDIVERSE_ALLOW_PRIVATE_ADDRESSES is on for tests.
 */
function publicOnly(load: DocumentLoader, allowPrivate: boolean): DocumentLoader {
  if (allowPrivate) return load;
  return async (url, options) => {
    // The JSON-LD contexts Fedify holds are read from memory, never fetched.
    if (url in preloadedContexts) return load(url, options);
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    const addresses = (await dns.lookup(host, { all: true, verbatim: true }).catch(() => [])).map(
      (entry) => entry.address,
    );
    if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
      throw new UrlError(`Refused to fetch ${url}: not a public address`);
    }
    return load(url, options);
  };
}

/**
 * Fedify on our schema: its key-value store (senders' keys remembered in front of it) and its
 * outbox queue, loading remote documents from public addresses only.
 */
function federationOn(
  kv: ReturnType<typeof rememberPublicKeys>,
  queue: ReturnType<typeof createMessageQueue>,
  publicUrl: URL,
  allowPrivateAddresses: boolean,
): Federation<void> {
  return createFederation<void>({
    kv,
    // Inbound activities are handled within their request (nothing to lose in a crash: the
    // sender retries until it is answered); what Fedify sends itself goes through the queue.
    queue: { outbox: queue },
    manuallyStartQueue: true,
    origin: publicUrl.origin,
    documentLoaderFactory: (options) =>
      publicOnly(
        getDocumentLoader({ ...options, allowPrivateAddress: allowPrivateAddresses }),
        allowPrivateAddresses,
      ),
    authenticatedDocumentLoaderFactory: (identity, options) =>
      publicOnly(
        getAuthenticatedDocumentLoader(identity, {
          ...options,
          allowPrivateAddress: allowPrivateAddresses,
        }),
        allowPrivateAddresses,
      ),
    // Most of the fediverse (Mastodon among it) reads draft-cavage signatures: sent first.
    firstKnock: "draft-cavage-http-signatures-12",
  });
}

/**
 * The keys the site signs with, under the ids its actor document publishes (Fedify names them
 * from the key pairs' order, server/fediverse/keys.ts): the RSA key as `#main-key` for HTTP
 * signatures, and the Ed25519 key as the Multikey `#multikey-2` for integrity proofs, so a
 * verifier that reads the actor finds the very key a proof names. Made once per process.
 */
function signingKeysOf(federation: Federation<void>, publicUrl: URL, handle: string) {
  let signing: Promise<SigningKeys> | undefined;
  return (): Promise<SigningKeys> => {
    signing ??= federation
      .createContext(publicUrl, undefined)
      .getActorKeyPairs(handle)
      .then(([rsa, ed25519]) => {
        if (!rsa || !ed25519?.multikey.id) throw new Error("the site actor has no key pairs");
        return {
          httpSignature: { keyId: rsa.keyId, privateKey: rsa.privateKey },
          proof: { keyId: ed25519.multikey.id, privateKey: ed25519.privateKey },
        };
      });
    // A failed read (the database away) is tried again by the next caller.
    signing.catch(() => {
      signing = undefined;
    });
    return signing;
  };
}

export function createFediverse(deps: FediverseDeps) {
  const { db, config, logger } = deps;
  const { handle, allowPrivateAddresses } = config.fediverse;
  const publicUrl = config.publicUrl;
  if (allowPrivateAddresses) {
    logger.warn(
      "FEDIVERSE_ALLOW_PRIVATE_ADDRESSES is on: fediverse fetches may reach loopback and private addresses (tests only)",
    );
  }
  // Senders' keys are read on every inbound activity: remembered in front of the shared store.
  const kv = rememberPublicKeys(createKvStore(db));
  const queue = createMessageQueue(db, logger);
  const federation = federationOn(kv, queue, publicUrl, allowPrivateAddresses);

  const actorUrl = () =>
    new URL(pathTo(otherRoutes.fediverseActor.path, { identifier: handle }), publicUrl);
  const addressing = (): ObjectAddressing => ({
    publicUrl,
    actorUrl: actorUrl(),
    followersUrl: new URL(
      pathTo(otherRoutes.fediverseFollowers.path, { identifier: handle }),
      publicUrl,
    ),
  });
  const documents = { ...deps, publicUrl, handle, addressing };

  federation
    .setActorDispatcher(FEDIVERSE_PATHS.actor, siteActor(documents))
    .setKeyPairsDispatcher(async (_ctx, identifier) =>
      identifier === handle ? actorKeyPairs(db) : [],
    );

  federation
    .setOutboxDispatcher(FEDIVERSE_PATHS.outbox, outboxPage(documents))
    .setCounter((_ctx, identifier) => (identifier === handle ? publishedCount(deps) : null))
    .setFirstCursor(() => "0");

  // The followers collection tells anyone how many follow; who they are is the poet's to see, in
  // the admin, not the world's.
  federation
    .setFollowersDispatcher(FEDIVERSE_PATHS.followers, (_ctx, identifier) =>
      identifier === handle ? { items: [] } : null,
    )
    .setCounter((_ctx, identifier) => (identifier === handle ? followerCount(db) : null));

  federation.setNodeInfoDispatcher(FEDIVERSE_PATHS.nodeInfo, nodeInfo(documents));

  const inboxDeps: InboxDeps = {
    db,
    logger,
    publicUrl,
    handle,
    reactions: deps.reactions,
    knownSender: prepareSenderRead(db),
    onFollower: deps.onFollower,
  };
  const isServerBlocked = serverBlockCheck(db);
  listenToActivities(
    federation
      .setInboxListeners(FEDIVERSE_PATHS.inbox, FEDIVERSE_PATHS.sharedInbox)
      .setSharedKeyDispatcher(() => ({ identifier: handle })),
    inboxDeps,
  );

  let stopQueue: AbortController | undefined;
  let queueRun: Promise<void> | undefined;

  return {
    federation,
    queue,
    kv,
    addressing,
    actorUrl,
    signingKeys: signingKeysOf(federation, publicUrl, handle),
    /** Expands the ActivityStreams contexts from Fedify's preloaded copies, never the network. */
    contextLoader: getDocumentLoader(),
    /** Whether an inbox request verifies against a key already held, with no fetch. */
    signedByKnownKey: knownKeyCheck(kv, getDocumentLoader()),
    isServerBlocked,
    /** `@handle@host`, port included when PUBLIC_URL has one. */
    handle: `@${handle}@${publicUrl.host}`,
    /** Starts handling queued messages (the Accepts); main.ts and tests call it. */
    start() {
      if (stopQueue) return;
      stopQueue = new AbortController();
      queueRun = federation.startQueue(undefined, { signal: stopQueue.signal });
    },
    async stop() {
      stopQueue?.abort();
      await queueRun;
      stopQueue = undefined;
      queueRun = undefined;
    },
  };
}

export type Fediverse = ReturnType<typeof createFediverse>;

/** A key the site signs with, named by the id its actor document publishes. */
export interface SigningKey {
  keyId: URL;
  privateKey: CryptoKey;
}

export interface SigningKeys {
  /** The RSA key (`#main-key`): draft-cavage HTTP signatures, which Mastodon verifies. */
  httpSignature: SigningKey;
  /** The Ed25519 key (`#multikey-2`): object integrity proofs. */
  proof: SigningKey;
}
