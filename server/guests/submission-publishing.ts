import { eq } from "drizzle-orm";
import * as paths from "../../common/paths.ts";
import type { StoredGuestVoice } from "../../common/schemas/guest-voices.ts";
import { GUEST_VOICE_MESSAGES } from "../../common/schemas/guest-voices.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, notFound } from "../core/errors.ts";
import { guestSubmissions, guestVoices } from "../db/schema.ts";
import { guestVoicePublishedMessage } from "../mail/guest-voice-published.ts";
import type { Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { freeSlug, insertVoice, nextPosition, toVoice } from "./guest-voice-rows.ts";

/** A submission's poem as paragraphs: its blank lines separate stanzas. */
function paragraphsOf(poemText: string): string[] {
  return poemText
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ""))
    .filter((paragraph) => paragraph.trim() !== "");
}

/** A reader's submission (guest-submissions.ts) published as a guest voice. */
export function submissionPublishing({
  db,
  config,
  logger,
  mailer,
  contentChanges,
  mailSite,
}: Pick<ServiceDeps, "db" | "config" | "logger"> & {
  mailer: Mailer;
  mailSite: MailSiteSource;
  contentChanges: ContentChanges;
}) {
  const voiceUrl = (slug: string) => new URL(paths.guestVoice(slug), config.publicUrl);

  return {
    /**
     * The submission as it was sent becomes the last guest voice, and its contributor gets one
     * email with its link. A submission is published once: again is a 409.
     */
    async publishSubmission(_admin: AdminActor, submissionId: number): Promise<StoredGuestVoice> {
      const [submission] = await db
        .select()
        .from(guestSubmissions)
        .where(eq(guestSubmissions.id, submissionId));
      if (!submission) throw notFound("Submission not found");
      const [published] = await db
        .select({ id: guestVoices.id })
        .from(guestVoices)
        .where(eq(guestVoices.submissionId, submissionId));
      if (published) throw conflict(GUEST_VOICE_MESSAGES.published);
      const row = await insertVoice(db, {
        slug: await freeSlug(db, submission.name),
        name: submission.name,
        handle: submission.handle ?? "",
        socialUrl: submission.socialUrl ?? "",
        bio: submission.bio ?? "",
        title: submission.poemTitle,
        body: paragraphsOf(submission.poemText),
        position: await nextPosition(db),
        submissionId,
      });
      await contentChanges.announce();
      try {
        await mailer.send(
          guestVoicePublishedMessage(
            await mailSite(),
            submission.email,
            submission.poemTitle,
            voiceUrl(row.slug),
          ),
        );
      } catch (error) {
        // The voice is published either way; publishing again would be refused, so the poet
        // learns of the lost email from the log rather than by a failed call.
        logger.error({ err: error, submissionId }, "the published-voice email could not be sent");
      }
      return toVoice(row);
    },
  };
}
