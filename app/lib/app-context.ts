import { createContext } from "react-router";
import type { AppLoadContext } from "../../common/load-context.ts";
import type { AdminActor } from "../../common/session.ts";

/**
 * The load context's key. The server build holds the one copy of this module that counts: the
 * server takes the key from the build it loaded (`appContext` exported by app/entry.server.tsx,
 * read in server/http/page-handler.ts), so the Hono app never imports it (decision 037).
 */
export const appContext = createContext<AppLoadContext>();

/**
 * The admin acting on an admin page, set by the admin layout's guard (app/routes/admin-layout.tsx)
 * and read by the loaders under it; reading it anywhere else throws.
 */
export const adminContext = createContext<AdminActor>();
