import type { Services } from "../server/services.ts";
import type { Actor, AdminActor, Audience } from "./session.ts";

/** Public facts about the site that pages render (never secrets). */
export interface SiteInfo {
  name: string;
  publicUrl: string;
  timezone: string;
  /** The site's fediverse handle, `@poet@host`, while it federates (FEDIVERSE); else null. */
  fediverseHandle: string | null;
}

/**
 * What the Hono app (server/app.ts) hands each route loader and action: the services and the
 * acting user. The server fills it; the pages read it through `appContext`
 * (app/lib/app-context.ts), whose one copy is the build's (server/http/page-handler.ts).
 */
export interface AppLoadContext {
  services: Services;
  actor: Actor;
  /**
   * The actor as the admin guard proved it, when the actor is the admin: what the admin layout
   * hands the admin pages' loaders, so that no page imports the guard itself.
   */
  admin: AdminActor | null;
  /** Anonymous, reader or admin: all a shared page may depend on (server/http/page-cache.ts). */
  audience: Audience;
  /** The reader's session could not be looked up (database unreachable): the page is a 503. */
  isDatabaseUnavailable: boolean;
  site: SiteInfo;
  nonce: string;
}
