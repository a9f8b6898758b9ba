import type { EmberService } from "../content/embers.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { weeklySchedule } from "./digest-schedule.ts";
import type { DigestSender } from "./digest-sender.ts";
import { digestSends } from "./digest-sends.ts";

export { SAMPLE_DIGEST_CONTENT } from "./weekly-content.ts";

/**
 * The weekly digest: its content drawn from the site (weekly-content.ts), the preview, and
 * sending runs (digest-sends.ts, digest-runs.ts), by hand or on the schedule
 * (digest-schedule.ts). The sending itself happens in the background (digest-sender.ts).
 */
export function createDigestService(
  deps: ServiceDeps & { embers: EmberService; sender: DigestSender; mailSite: MailSiteSource },
) {
  return { ...digestSends(deps), ...weeklySchedule(deps) };
}

export type DigestService = ReturnType<typeof createDigestService>;
