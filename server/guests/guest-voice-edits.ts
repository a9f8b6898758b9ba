import { asc, eq } from "drizzle-orm";
import type {
  GuestVoiceInput,
  GuestVoiceUpdate,
  StoredGuestVoice,
} from "../../common/schemas/guest-voices.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { conflict, isUniqueViolation } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { guestVoices } from "../db/schema.ts";
import { freeSlug, insertVoice, nextPosition, toVoice, voiceById } from "./guest-voice-rows.ts";

/** The voices in the new order, renumbered 1…n, `moved` at `position` (clamped to the end). */
async function moveTo(db: Database, moved: number, position: number): Promise<void> {
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

/** The poet's own writes of voices: a new one, and an edit, a hiding or a move of one. */
export function guestVoiceEdits({
  db,
  contentChanges,
}: Pick<ServiceDeps, "db"> & { contentChanges: ContentChanges }) {
  return {
    async create(_admin: AdminActor, input: GuestVoiceInput): Promise<StoredGuestVoice> {
      const row = await insertVoice(db, {
        slug: input.slug ?? (await freeSlug(db, input.name)),
        name: input.name,
        handle: input.handle ?? "",
        socialUrl: input.socialUrl ?? "",
        avatarUrl: input.avatarUrl,
        headerImageUrl: input.headerImageUrl,
        bio: input.bio,
        title: input.title,
        body: input.body,
        hidden: input.hidden ?? false,
        position: await nextPosition(db),
      });
      await contentChanges.announce();
      return toVoice(row);
    },

    async update(
      _admin: AdminActor,
      id: number,
      { position, ...fields }: GuestVoiceUpdate,
    ): Promise<StoredGuestVoice> {
      await voiceById(db, id);
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
      if (position !== undefined) await moveTo(db, id, position);
      await contentChanges.announce();
      return toVoice(await voiceById(db, id));
    },
  };
}
