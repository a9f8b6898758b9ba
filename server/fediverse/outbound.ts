import type { DocumentLoader } from "@fedify/vocab-runtime";
import type { PoemDeliveryState } from "../../common/schemas/fediverse-delivery.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import {
  createFediverseDelivery,
  deliveryStateByPoem,
  type FediverseDeliveryOptions,
} from "./delivery.ts";
import type { SigningKeys } from "./federation.ts";
import { followerInboxes } from "./followers.ts";
import type { ObjectAddressing } from "./objects.ts";
import {
  createFediversePublishing,
  type FediversePublishingOptions,
  markPoemsAsHistory,
} from "./publishing.ts";

/**
 * What the site sends its fediverse followers (docs/decisions/047-fediverse-delivery.md):
 * publishing by reconciliation, woken by every content write, and the durable delivery queue,
 * both running on every instance.
 */
export function createFediverseOutbound(
  deps: ServiceDeps & {
    contentChanges: ContentChanges;
    /** The site actor and its followers collection (server/fediverse/federation.ts). */
    addressing: () => ObjectAddressing;
    /** Expands JSON-LD contexts from Fedify's preloaded copies, never the network. */
    contextLoader: DocumentLoader;
    /** The actor's keys under the ids its document publishes (server/fediverse/federation.ts). */
    signingKeys: () => Promise<SigningKeys>;
    deliveryOptions?: Partial<FediverseDeliveryOptions>;
    publishingOptions?: Partial<FediversePublishingOptions>;
  },
) {
  const { db, config } = deps;
  const delivery = createFediverseDelivery({
    ...deps,
    signer: async () => (await deps.signingKeys()).httpSignature,
    allowPrivateAddresses: config.fediverse.allowPrivateAddresses,
    options: { leaseSeconds: config.fediverse.leaseSeconds, ...deps.deliveryOptions },
  });
  const publishing = createFediversePublishing({
    ...deps,
    identity: async () => ({
      addressing: deps.addressing(),
      proofSigner: (await deps.signingKeys()).proof,
      contextLoader: deps.contextLoader,
    }),
    followerInboxes,
    onQueued: delivery.wake,
    options: deps.publishingOptions,
  });
  // A poem saved, edited, deleted or restored goes out now, not at the next interval.
  deps.contentChanges.onChange(() => publishing.wake());

  return {
    name: "fediverse publishing and delivery",
    deliveryState: (_admin: AdminActor): Promise<PoemDeliveryState[]> => deliveryStateByPoem(db),
    /** For the import: the poems it brings are the poet's history, never sent to followers. */
    markPoemsAsHistory: (poemIds: number[]) => markPoemsAsHistory(db, poemIds),
    /** One reconciliation, then every delivery due now (tests and the CLI). */
    async federateNow(): Promise<void> {
      await publishing.reconcile();
      await delivery.drain();
    },
    releaseOwnClaims: delivery.releaseOwnClaims,
    start() {
      if (!config.fediverse.enabled) return;
      publishing.start();
      delivery.start();
    },
    async stop() {
      await publishing.stop();
      await delivery.stop();
    },
  };
}

export type FediverseOutbound = ReturnType<typeof createFediverseOutbound>;
