import { eq, like, max } from "drizzle-orm";
import type { StoredGuestVoice } from "../../common/schemas/guest-voices.ts";
import { GUEST_VOICE_MESSAGES } from "../../common/schemas/guest-voices.ts";
import { slugFromTitle } from "../../common/slug.ts";
import { conflict, isUniqueViolation, notFound } from "../core/errors.ts";
import type { Database } from "../db/client.ts";
import { guestVoices } from "../db/schema.ts";

/* A guest voice's row as every use case reads and writes it (guest-voices.ts). */

type Row = typeof guestVoices.$inferSelect;

/** The first three lines of the poem: what the lists show of it. */
function excerptOf(body: string[]): string[] {
  return body
    .flatMap((paragraph) => paragraph.split("\n"))
    .filter((line) => line.trim() !== "")
    .slice(0, 3);
}

export function toVoice(row: Row): StoredGuestVoice {
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

export async function voiceById(db: Database, id: number): Promise<Row> {
  const [row] = await db.select().from(guestVoices).where(eq(guestVoices.id, id));
  if (!row) throw notFound(GUEST_VOICE_MESSAGES.notFound);
  return row;
}

export async function nextPosition(db: Database): Promise<number> {
  const [row] = await db.select({ last: max(guestVoices.position) }).from(guestVoices);
  return (row?.last ?? 0) + 1;
}

/** The name's slug, or it with the first free "-2", "-3"… when another voice has it. */
export async function freeSlug(db: Database, name: string): Promise<string> {
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
export async function insertVoice(
  db: Database,
  values: typeof guestVoices.$inferInsert,
): Promise<Row> {
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
