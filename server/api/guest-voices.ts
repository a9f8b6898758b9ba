import { Hono } from "hono";
import { z } from "zod/mini";
import { endpoints } from "../../common/endpoints.ts";
import { GUEST_VOICE_MESSAGES } from "../../common/schemas/guest-voices.ts";
import { answer } from "../http/answer.ts";
import type { AdminEnv } from "../http/env.ts";
import { idInText, parseInput, readJsonBody } from "../http/json-body.ts";
import type { Services } from "../services/index.ts";

const voiceId = z.object({ id: idInText(GUEST_VOICE_MESSAGES.notFound) });
const submissionId = z.object({ id: idInText("Submission not found") });

/**
 * The guest voices' admin calls, on the admin router (server/api/admin.ts): the list with hidden
 * voices, create, update (hide, show and reorder included), and a submission published as a voice.
 */
export function guestVoiceRoutes({ guestVoices }: Services) {
  return new Hono<AdminEnv>()
    .get("/guest-voices", async (c) =>
      answer(c, endpoints.listGuestVoices, await guestVoices.listAll(c.var.admin)),
    )
    .post("/guest-voices", async (c) => {
      const input = await readJsonBody(c, endpoints.createGuestVoice.body);
      return answer(c, endpoints.createGuestVoice, await guestVoices.create(c.var.admin, input));
    })
    .put("/guest-voices/:id", async (c) => {
      const { id } = parseInput(voiceId, c.req.param());
      const input = await readJsonBody(c, endpoints.updateGuestVoice.body);
      return answer(
        c,
        endpoints.updateGuestVoice,
        await guestVoices.update(c.var.admin, id, input),
      );
    })
    .post("/submissions/:id/publish", async (c) => {
      const { id } = parseInput(submissionId, c.req.param());
      return answer(
        c,
        endpoints.publishGuestSubmission,
        await guestVoices.publishSubmission(c.var.admin, id),
      );
    });
}
