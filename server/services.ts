import * as paths from "../common/paths.ts";
import { createAccountService } from "./accounts/accounts.ts";
import { createReaderAccountService } from "./accounts/reader-accounts.ts";
import { type ChapbookBuilderOptions, createChapbookBuilder } from "./chapbook/builder.ts";
import { createChapbookService } from "./chapbook/chapbooks.ts";
import { createBookService } from "./content/books.ts";
import { createContentAdminService } from "./content/content-admin.ts";
import { createEmberService } from "./content/embers.ts";
import { createPoemService } from "./content/poems.ts";
import { createRecentlyDeletedService } from "./content/recently-deleted.ts";
import { createSampleContentService } from "./content/sample-content.ts";
import { createSearchService } from "./content/search.ts";
import { createSitemapService } from "./content/sitemap.ts";
import { createContentChanges } from "./core/content-changes.ts";
import type { ServiceDeps } from "./core/deps.ts";
import { createRateLimiter } from "./core/rate-limit.ts";
import type { DatabaseHandle } from "./db/client.ts";
import { createDigestService } from "./digest/digest.ts";
import { createDigestSender, type DigestSenderOptions } from "./digest/digest-sender.ts";
import { createSubscriptionService } from "./digest/subscriptions.ts";
import { createFediverseAdminService } from "./fediverse/admin.ts";
import type { FediverseDeliveryOptions } from "./fediverse/delivery.ts";
import { createFediverse } from "./fediverse/federation.ts";
import { createFediverseOutbound } from "./fediverse/outbound.ts";
import { markPoemsAsHistory } from "./fediverse/publishing.ts";
import { createFediverseReactionService } from "./fediverse/reactions.ts";
import { createGuestSubmissionService } from "./guests/guest-submissions.ts";
import { createGuestVoiceService } from "./guests/guest-voices.ts";
import type { PublicFetchOptions } from "./http/public-fetch.ts";
import { createImportService, type ImportOptions } from "./import/import.ts";
import { digestClickToken } from "./insights/digest-links.ts";
import { createInsightsService } from "./insights/insights.ts";
import { createInteractionService } from "./interactions/interactions.ts";
import { createJobs } from "./jobs/registry.ts";
import type { Mailer } from "./mail/transport.ts";
import { createAudioService, createReadingFetcher } from "./media/audio.ts";
import { createCoverFetcher, createImageService } from "./media/images.ts";
import { createDatabaseUpkeep } from "./operations/database-upkeep.ts";
import { createHealthService } from "./operations/health.ts";
import { resolveSessionSecret } from "./secrets.ts";
import { createSiteSettingsService } from "./settings/site-settings.ts";
import type { ObjectStore } from "./storage/local.ts";

/** What tests shorten or hold open; servers use each service's defaults. */
export interface ServiceTuning {
  /** The digest sender's retry delays. */
  digestSenderOptions?: Partial<DigestSenderOptions>;
  /** The import's lease and batches. */
  importOptions?: Partial<ImportOptions>;
  /** The fediverse delivery's retry delays. */
  fediverseDeliveryOptions?: Partial<FediverseDeliveryOptions>;
  /** A chapbook's build held open, or its lease. */
  chapbookBuilderOptions?: Partial<ChapbookBuilderOptions>;
}

/** What the composition root hands createServices. */
export type ServiceInputs = Omit<ServiceDeps, "now" | "ownsDatabase"> &
  ServiceTuning & {
    now?: () => Date;
    handle: DatabaseHandle;
    mailer: Mailer;
    /** Where covers, readings and chapbook files are kept. */
    objectStore: ObjectStore;
    /** Tests point host names at their own loopback server; servers check real DNS answers. */
    urlCheck?: PublicFetchOptions;
  };

/**
 * Every service of one app instance; API handlers and route loaders both call these. Built by
 * the composition root, server/compose.ts, one layer at a time: what every feature shares, the
 * features, the fediverse adapter on what they export, and last the background jobs.
 */
export function createServices(given: ServiceInputs) {
  const shared = sharedParts(given);
  const { deps, rateLimiter, contentChanges, mailSite } = shared;
  const features = featureServices(shared);
  const fediverse = fediverseAdapter(shared, features);
  const jobs = createJobs(backgroundJobs(deps, { ...features, ...fediverse }), deps);
  return {
    ...features,
    ...fediverse,
    jobs,
    images: shared.images,
    audio: shared.audio,
    health: createHealthService(deps.handle),
    contentChanges,
    siteSettings: shared.siteSettings,
    sampleContent: createSampleContentService({ ...deps, contentChanges }),
    contentAdmin: createContentAdminService({ ...deps, poems: features.poems, contentChanges }),
    books: createBookService(deps),
    guestSubmissions: createGuestSubmissionService({ ...deps, rateLimiter }),
    guestVoices: createGuestVoiceService({ ...deps, mailSite, contentChanges }),
    sitemap: createSitemapService(deps),
    search: createSearchService(deps),
    rateLimiter,
    readerAccounts: createReaderAccountService({
      ...deps,
      accounts: features.accounts,
      interactions: features.interactions,
    }),
  };
}

/** What the features share: the clock and database, limits, the secret, media, the site's name. */
function sharedParts(given: ServiceInputs) {
  const deps = {
    ...given,
    now: given.now ?? (() => new Date()),
    ownsDatabase: given.handle.driver === "pglite",
  };
  const rateLimiter = createRateLimiter(deps.db, {
    scale: deps.config.rateLimitScale,
    ownsDatabase: deps.ownsDatabase,
  });
  const secret = resolveSessionSecret(deps.config);
  const contentChanges = createContentChanges(deps);
  const siteSettings = createSiteSettingsService({ ...deps, contentChanges });
  return {
    deps,
    rateLimiter,
    secret,
    contentChanges,
    siteSettings,
    images: createImageService({ ...deps, secret, rateLimiter }),
    audio: createAudioService({ ...deps, secret }),
    /** Who the site's mail comes from, as the poet named it. */
    mailSite: async () => ({
      ...(await siteSettings.identity()),
      publicUrl: deps.config.publicUrl.toString(),
    }),
  };
}

/** The features that other services or the background jobs are built on. */
function featureServices({
  deps,
  rateLimiter,
  secret,
  contentChanges,
  siteSettings,
  mailSite,
}: ReturnType<typeof sharedParts>) {
  const { objectStore, urlCheck } = deps;
  const embers = createEmberService(deps);
  const subscriptions = createSubscriptionService({ ...deps, mailSite, rateLimiter, secret });
  const digestSender = createDigestSender({
    ...deps,
    mailSite,
    unsubscribeUrl: subscriptions.unsubscribeUrl,
    digestLinkUrl: (runId, position) =>
      new URL(
        paths.digestLink(digestClickToken(secret, runId, position)),
        deps.config.publicUrl,
      ).toString(),
    options: deps.digestSenderOptions,
  });
  const interactions = createInteractionService({ ...deps, rateLimiter });
  contentChanges.onChange(() => interactions.contentChanged());
  const insights = createInsightsService({ ...deps, counting: deps.config.counting, secret });
  contentChanges.onChange(() => insights.contentChanged());
  const recentlyDeleted = createRecentlyDeletedService({ ...deps, contentChanges });
  const chapbooks = createChapbookService(deps);
  return {
    embers,
    poems: createPoemService(deps),
    subscriptions,
    digestSender,
    digest: createDigestService({ ...deps, embers, mailSite, sender: digestSender }),
    interactions,
    insights,
    recentlyDeleted,
    accounts: createAccountService({ ...deps, mailSite, rateLimiter, secret }),
    chapbooks,
    chapbookBuilder: createChapbookBuilder({
      ...deps,
      chapbooks,
      contentChanges,
      siteSettings,
      readStoredObject: (key) => objectStore.get(key),
      options: deps.chapbookBuilderOptions,
    }),
    databaseUpkeep: createDatabaseUpkeep({ ...deps, recentlyDeleted }),
    imports: createImportService({
      ...deps,
      contentChanges,
      markPoemsAsHistory,
      fetchCover: createCoverFetcher(objectStore, urlCheck),
      fetchReading: createReadingFetcher(objectStore, urlCheck),
      options: deps.importOptions,
    }),
  };
}

/** The fediverse adapter (docs/decisions/045-federation-layer.md), on what the features export. */
function fediverseAdapter(
  { deps, contentChanges, siteSettings }: ReturnType<typeof sharedParts>,
  { poems, interactions, insights }: ReturnType<typeof featureServices>,
) {
  const fediverseReactions = createFediverseReactionService({ ...deps, interactions });
  const fediverse = createFediverse({
    ...deps,
    poems,
    siteSettings,
    reactions: fediverseReactions,
    // A new follower's server is a fediverse source at once, not at the next periodic read.
    onFollower: () => insights.refreshFollowerHosts(),
  });
  return {
    fediverse,
    fediverseReactions,
    fediverseAdmin: createFediverseAdminService({
      ...deps,
      reactions: fediverseReactions,
      fediverse,
    }),
    fediverseOutbound: createFediverseOutbound({
      ...deps,
      contentChanges,
      addressing: fediverse.addressing,
      contextLoader: fediverse.contextLoader,
      signingKeys: fediverse.signingKeys,
      deliveryOptions: deps.fediverseDeliveryOptions,
    }),
  };
}

/** Every loop of the process (docs/decisions/077-one-home-for-background-work.md). */
function backgroundJobs(
  deps: ReturnType<typeof sharedParts>["deps"],
  services: ReturnType<typeof featureServices> & ReturnType<typeof fediverseAdapter>,
) {
  const { fediverse, imports, insights } = services;
  return [
    services.digestSender,
    services.fediverseOutbound,
    services.subscriptions.verificationRetries,
    services.databaseUpkeep.loop,
    services.digest.scheduleLoop,
    { ...imports.loop, releaseOwnClaims: imports.releaseOwnClaims },
    services.chapbookBuilder.loop,
    {
      name: "fediverse inbox queue",
      start: () => {
        if (deps.config.fediverse.enabled) fediverse.start();
      },
      stop: fediverse.stop,
      releaseOwnClaims: fediverse.queue.releaseOwnClaims,
    },
    // Last: its stop writes the counts still in memory.
    { name: "counting", start: insights.start, stop: insights.stop },
  ];
}

export type Services = ReturnType<typeof createServices>;
