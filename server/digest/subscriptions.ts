import type { ServiceDeps } from "../core/deps.ts";
import type { RateLimiter } from "../core/rate-limit.ts";
import type { Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { confirmationRetries, createConfirmationMail } from "./confirmations.ts";
import { signUp } from "./sign-up.ts";
import { subscriberExport } from "./subscriber-export.ts";
import { unsubscribeLinks } from "./unsubscribe-links.ts";

export { SUBSCRIBE_MESSAGE } from "./sign-up.ts";

/**
 * The weekly digest's list (docs/product/digest.md): double opt-in by an emailed link whose token
 * is stored only hashed, and unsubscribe links signed per subscriber.
 */
export function createSubscriptionService(
  deps: ServiceDeps & {
    mailer: Mailer;
    mailSite: MailSiteSource;
    rateLimiter: RateLimiter;
    secret: string;
  },
) {
  const links = unsubscribeLinks(deps);
  const mail = createConfirmationMail(deps, links.unsubscribeUrl);
  return {
    ...links,
    ...confirmationRetries(deps, mail),
    ...signUp(deps, mail),
    ...subscriberExport(deps),
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
