import type { RequestIdVariables } from "hono/request-id";
import type { SecureHeadersVariables } from "hono/secure-headers";
import type { Actor } from "../services/actor.ts";

/** The Hono context every handler sees. */
export interface AppEnv {
  Variables: RequestIdVariables &
    SecureHeadersVariables & {
      actor: Actor;
      /** Set on page requests whose session could not be looked up: the database is away. */
      isDatabaseUnavailable?: boolean;
    };
}
