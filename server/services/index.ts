import type { DatabaseHandle } from "../db/client.ts";
import type { Mailer } from "../mail/transport.ts";
import { resolveSessionSecret } from "../secrets.ts";
import { createAccountService } from "./accounts.ts";
import { createBookService } from "./books.ts";
import type { ServiceDeps } from "./deps.ts";
import { createEmberService } from "./embers.ts";
import { createGuestSubmissionService } from "./guest-submissions.ts";
import { createHealthService } from "./health.ts";
import { createInteractionService } from "./interactions.ts";
import { createPoemService } from "./poems.ts";
import { createRateLimiter } from "./rate-limit.ts";
import { createSitemapService } from "./sitemap.ts";
import { createSubscriptionService } from "./subscriptions.ts";

/** Every service of one app instance; API handlers and route loaders both call these. */
export function createServices(deps: ServiceDeps & { handle: DatabaseHandle; mailer: Mailer }) {
  const rateLimiter = createRateLimiter(deps.db);
  const secret = resolveSessionSecret(deps.config);
  return {
    health: createHealthService(deps.handle),
    poems: createPoemService(deps),
    embers: createEmberService(deps),
    books: createBookService(deps),
    guestSubmissions: createGuestSubmissionService({ ...deps, rateLimiter }),
    interactions: createInteractionService({ ...deps, rateLimiter }),
    sitemap: createSitemapService(deps),
    subscriptions: createSubscriptionService({ ...deps, rateLimiter, secret }),
    rateLimiter,
    accounts: createAccountService({
      ...deps,
      rateLimiter,
      secret,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
