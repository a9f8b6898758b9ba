import { createContext, type RouterContext } from "react-router";
import type { Audience } from "../../server/db/visibility.ts";
import type { Actor, AdminActor } from "../../server/services/actor.ts";
import type { Services } from "../../server/services/index.ts";

/** Public facts about the site that pages render (never secrets). */
export interface SiteInfo {
  name: string;
  publicUrl: string;
  timezone: string;
}

/** What the Hono app hands each route loader and action: the services and the acting user. */
export interface AppLoadContext {
  services: Services;
  actor: Actor;
  /** Anonymous, reader or admin: all a shared page may depend on (server/http/page-cache.ts). */
  audience: Audience;
  /** The reader's session could not be looked up (database unreachable): the page is a 503. */
  isDatabaseUnavailable: boolean;
  site: SiteInfo;
  nonce: string;
}

// The server build bundles its own copy of this module, so the key is a process-wide singleton:
// the Hono app (outside the bundle) and the loaders (inside it) must hold the same object.
const KEY = Symbol.for("ember-verse.app-context");
const registry = globalThis as unknown as Record<symbol, RouterContext<AppLoadContext> | undefined>;
registry[KEY] ??= createContext<AppLoadContext>();
export const appContext = registry[KEY];

/**
 * The admin acting on an admin page, set by the admin layout's guard (app/routes/admin-layout.tsx)
 * and read by the loaders under it; reading it anywhere else throws.
 */
export const adminContext = createContext<AdminActor>();
