import type { RequestIdVariables } from "hono/request-id";
import type { SecureHeadersVariables } from "hono/secure-headers";
import type { Audience } from "../../common/session.ts";
import type { Actor, AdminActor } from "../core/actor.ts";

/** The Hono context every handler sees. */
export interface AppEnv {
  Variables: RequestIdVariables &
    SecureHeadersVariables & {
      actor: Actor;
      /**
       * Which of the three audiences the page is for: the actor's, or, for the page cache's
       * render of a shared copy, the one it renders for, with no actor at all.
       */
      audience: Audience;
      /** Set on page requests whose session could not be looked up: the database is away. */
      isDatabaseUnavailable?: boolean;
    };
}

/** Handlers on the admin router (server/admin-router.ts), behind its guard. */
export interface AdminEnv {
  Variables: AppEnv["Variables"] & {
    /** The guard's proof that the caller is an admin, which every admin service asks for. */
    admin: AdminActor;
  };
}
