import { asc, eq, not } from "drizzle-orm";
import type { StoredGuestVoice } from "../../common/schemas/guest-voices.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { guestVoices } from "../db/schema.ts";
import type { Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";
import { guestVoiceEdits } from "./guest-voice-edits.ts";
import { toVoice } from "./guest-voice-rows.ts";
import { submissionPublishing } from "./submission-publishing.ts";

/**
 * The guest voices (docs/product/admin.md, Guest voices): readers see the shown ones in the
 * poet's order; every write is announced, so cached pages and search follow at once.
 */
export function createGuestVoiceService(
  deps: ServiceDeps & { mailer: Mailer; mailSite: MailSiteSource; contentChanges: ContentChanges },
) {
  const { db } = deps;
  return {
    /** What readers see: the shown voices, in order. */
    async listShown(): Promise<StoredGuestVoice[]> {
      const rows = await db
        .select()
        .from(guestVoices)
        .where(not(guestVoices.hidden))
        .orderBy(asc(guestVoices.position), asc(guestVoices.id));
      return rows.map(toVoice);
    },

    /** A shown voice by its slug; a hidden one is not found, like one that never was. */
    async findShown(slug: string): Promise<StoredGuestVoice | null> {
      const [row] = await db.select().from(guestVoices).where(eq(guestVoices.slug, slug));
      return row && !row.hidden ? toVoice(row) : null;
    },

    async listAll(_admin: AdminActor): Promise<StoredGuestVoice[]> {
      const rows = await db
        .select()
        .from(guestVoices)
        .orderBy(asc(guestVoices.position), asc(guestVoices.id));
      return rows.map(toVoice);
    },

    ...guestVoiceEdits(deps),
    ...submissionPublishing(deps),
  };
}

export type GuestVoiceService = ReturnType<typeof createGuestVoiceService>;
