import type { ServiceDeps } from "../core/deps.ts";
import type { RateLimiter } from "../core/rate-limit.ts";
import type { Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { roles } from "./roles.ts";
import { createSessionMemory, requestActors } from "./session-memory.ts";
import { createSignInLinks, signIn } from "./sign-in.ts";

export { AUDIENCE_LOOKUP_MS } from "./session-memory.ts";
export { safeReturnPath } from "./sign-in.ts";

export interface AccountDeps extends ServiceDeps {
  mailer: Mailer;
  mailSite: MailSiteSource;
  rateLimiter: RateLimiter;
  secret: string;
}

/**
 * Sign-in, sessions and roles. better-auth does the token and session work; this service owns
 * the site's rules around it: links mailed behind a Continue button, rate limits, no enumeration,
 * roles from ADMIN_EMAILS and the CLI, sessions revoked on role change.
 */
export function createAccountService(deps: AccountDeps) {
  const links = createSignInLinks(deps);
  const { sessionActor, ...sessionMemory } = createSessionMemory(deps, links.auth);
  const roleChanges = roles(deps, sessionMemory);
  return {
    auth: links.auth,
    ...requestActors(sessionActor),
    ...sessionMemory,
    ...signIn(deps, links, roleChanges),
    ...roleChanges,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
