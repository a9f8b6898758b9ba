import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { GuestVoiceService } from "./guest-voices.ts";

/**
 * The guest voices' admin calls, on the admin router (server/admin-router.ts): the list with hidden
 * voices, create, update (hide, show and reorder included), and a submission published as a voice.
 */
export function guestVoiceRoutes({ guestVoices }: { guestVoices: GuestVoiceService }) {
  return routesAt<AdminEnv>(mounts.admin)
    .call(endpoints.listGuestVoices, (_input, c) => guestVoices.listAll(c.var.admin))
    .call(endpoints.createGuestVoice, ({ body }, c) => guestVoices.create(c.var.admin, body))
    .call(endpoints.updateGuestVoice, ({ params, body }, c) =>
      guestVoices.update(c.var.admin, params.id, body),
    )
    .call(endpoints.publishGuestSubmission, ({ params }, c) =>
      guestVoices.publishSubmission(c.var.admin, params.id),
    ).router;
}
