import type { RequestIdVariables } from "hono/request-id";
import type { SecureHeadersVariables } from "hono/secure-headers";
import type { Actor, AdminActor } from "../services/actor.ts";

/** The Hono context every handler sees. */
export interface AppEnv {
  Variables: RequestIdVariables &
    SecureHeadersVariables & {
      actor: Actor;
      /** Set on page requests whose session could not be looked up: the database is away. */
      isDatabaseUnavailable?: boolean;
    };
}

/** Handlers on the admin router (server/api/admin.ts), behind its guard. */
export interface AdminEnv {
  Variables: AppEnv["Variables"] & {
    /** The guard's proof that the caller is an admin, which every admin service asks for. */
    admin: AdminActor;
  };
}
