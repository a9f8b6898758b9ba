import { asc, eq, like, max, not } from "drizzle-orm";
import * as paths from "../../common/paths.ts";
import type {
  GuestVoiceInput,
  GuestVoiceUpdate,
  StoredGuestVoice,
} from "../../common/schemas/guest-voices.ts";
import { GUEST_VOICE_MESSAGES } from "../../common/schemas/guest-voices.ts";
import { slugFromTitle } from "../../common/slug.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, isUniqueViolation, notFound } from "../core/errors.ts";
import { guestSubmissions, guestVoices } from "../db/schema.ts";
import { guestVoicePublishedMessage } from "../mail/guest-voice-published.ts";
import type { Mailer } from "../mail/transport.ts";
import type { MailSiteSource } from "../settings/site-settings.ts";

type Row = typeof guestVoices.$inferSelect;

/** The first three lines of the poem: what the lists show of it. */
function excerptOf(body: string[]): string[] {
  return body
    .flatMap((paragraph) => paragraph.split("\n"))
    .filter((line) => line.trim() !== "")
    .slice(0, 3);
}

function toVoice(row: Row): StoredGuestVoice {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    handle: row.handle,
    socialUrl: row.socialUrl,
    avatarUrl: row.avatarUrl,
    headerImageUrl: row.headerImageUrl,
    bio: row.bio,
    title: row.title,
    excerpt: excerptOf(row.body),
    body: row.body,
    otherWorks: row.otherWorks,
    position: row.position,
    hidden: row.hidden,
    submissionId: row.submissionId,
  };
}

/** A submission's poem as paragraphs: its blank lines separate stanzas. */
function paragraphsOf(poemText: string): string[] {
  return poemText
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ""))
    .filter((paragraph) => paragraph.trim() !== "");
}

/**
 * The guest voices (docs/product/admin.md, Guest voices): readers see the shown ones in the
 * poet's order; every write is announced, so cached pages and search follow at once.
 */
export function createGuestVoiceService({
  db,
  config,
  logger,
  mailer,
  contentChanges,
  mailSite,
}: ServiceDeps & { mailer: Mailer; mailSite: MailSiteSource; contentChanges: ContentChanges }) {
  const voiceUrl = (slug: string) => new URL(paths.guestVoice(slug), config.publicUrl);

  async function byId(id: number): Promise<Row> {
    const [row] = await db.select().from(guestVoices).where(eq(guestVoices.id, id));
    if (!row) throw notFound(GUEST_VOICE_MESSAGES.notFound);
    return row;
  }

  async function nextPosition(): Promise<number> {
    const [row] = await db.select({ last: max(guestVoices.position) }).from(guestVoices);
    return (row?.last ?? 0) + 1;
  }

  /** The name's slug, or it with the first free "-2", "-3"… when another voice has it. */
  async function freeSlug(name: string): Promise<string> {
    const base = slugFromTitle(name) || "guest-voice";
    const taken = new Set(
      (
        await db
          .select({ slug: guestVoices.slug })
          .from(guestVoices)
          .where(like(guestVoices.slug, `${base}%`))
      ).map((row) => row.slug),
    );
    let slug = base;
    for (let suffix = 2; taken.has(slug); suffix++) slug = `${base}-${suffix}`;
    return slug;
  }

  /** Writes the voice, answering 409 when its slug (or its submission) is already a voice's. */
  async function insert(values: typeof guestVoices.$inferInsert): Promise<Row> {
    try {
      const [row] = await db.insert(guestVoices).values(values).returning();
      if (!row) throw new Error("the insert returned no guest voice");
      return row;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw conflict(
        values.submissionId !== undefined
          ? GUEST_VOICE_MESSAGES.published
          : "A guest voice with this slug already exists",
      );
    }
  }

  /** The voices in the new order, renumbered 1…n, `moved` at `position` (clamped to the end). */
  async function moveTo(moved: number, position: number): Promise<void> {
    await db.transaction(async (tx) => {
      const ids = (
        await tx
          .select({ id: guestVoices.id })
          .from(guestVoices)
          .orderBy(asc(guestVoices.position), asc(guestVoices.id))
          .for("update")
      )
        .map((row) => row.id)
        .filter((id) => id !== moved);
      ids.splice(Math.min(position, ids.length + 1) - 1, 0, moved);
      for (const [index, id] of ids.entries()) {
        await tx
          .update(guestVoices)
          .set({ position: index + 1 })
          .where(eq(guestVoices.id, id));
      }
    });
  }

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

    async create(_admin: AdminActor, input: GuestVoiceInput): Promise<StoredGuestVoice> {
      const row = await insert({
        slug: input.slug ?? (await freeSlug(input.name)),
        name: input.name,
        handle: input.handle ?? "",
        socialUrl: input.socialUrl ?? "",
        avatarUrl: input.avatarUrl,
        headerImageUrl: input.headerImageUrl,
        bio: input.bio,
        title: input.title,
        body: input.body,
        hidden: input.hidden ?? false,
        position: await nextPosition(),
      });
      await contentChanges.announce();
      return toVoice(row);
    },

    async update(
      _admin: AdminActor,
      id: number,
      { position, ...fields }: GuestVoiceUpdate,
    ): Promise<StoredGuestVoice> {
      await byId(id);
      if (Object.values(fields).some((value) => value !== undefined)) {
        try {
          // Editing a built-in voice's words makes it the poet's; hiding it does not (decision 058).
          const { hidden: _hidden, ...words } = fields;
          const isEdited = Object.values(words).some((value) => value !== undefined);
          await db
            .update(guestVoices)
            .set({ ...fields, ...(isEdited ? { isSample: false } : {}) })
            .where(eq(guestVoices.id, id));
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw conflict("A guest voice with this slug already exists");
          }
          throw error;
        }
      }
      if (position !== undefined) await moveTo(id, position);
      await contentChanges.announce();
      return toVoice(await byId(id));
    },

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
      const row = await insert({
        slug: await freeSlug(submission.name),
        name: submission.name,
        handle: submission.handle ?? "",
        socialUrl: submission.socialUrl ?? "",
        bio: submission.bio ?? "",
        title: submission.poemTitle,
        body: paragraphsOf(submission.poemText),
        position: await nextPosition(),
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

export type GuestVoiceService = ReturnType<typeof createGuestVoiceService>;
