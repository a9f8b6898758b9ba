import type { Config } from "../config.ts";
import type { ObjectAudience } from "./objects.ts";

/**
 * The site actor's address and its followers collection, for activities made outside a Fedify
 * request (the publishing loop): the same paths Fedify serves them at.
 */
export function siteActorAudience(config: Pick<Config, "publicUrl" | "fediverse">): ObjectAudience {
  const actorUrl = new URL(
    `/fediverse/actor/${encodeURIComponent(config.fediverse.handle)}`,
    config.publicUrl,
  );
  return {
    publicUrl: config.publicUrl,
    actorUrl,
    followersUrl: new URL(`${actorUrl.pathname}/followers`, config.publicUrl),
  };
}
