import { z } from "zod/mini";
import { isHttpUrl, isObjectPath, link, optional, requiredText, slug } from "./admin.ts";

/**
 * A guest voice as the admin edits it (docs/product/admin.md, Guest voices) and readers see it.
 * Paragraphs are stanzas with their lines joined by "\n"; an empty paragraph is a spacer.
 */

export const GUEST_VOICE_LIMITS = {
  name: 100,
  handle: 50,
  bio: 500,
  title: 200,
  paragraphs: 200,
  paragraph: 10_000,
} as const;

export const GUEST_VOICE_MESSAGES = {
  name: "Name is required",
  title: "Poem title is required",
  bio: "Bio is required",
  body: "The poem needs at least one paragraph of text",
  paragraph: `Please keep each paragraph under ${GUEST_VOICE_LIMITS.paragraph} characters`,
  paragraphs: `Please keep a poem under ${GUEST_VOICE_LIMITS.paragraphs} paragraphs`,
  handle: `Please keep the handle under ${GUEST_VOICE_LIMITS.handle} characters`,
  socialUrl: "Please enter a valid URL",
  image: "Must be a valid URL or object storage path",
  position: "Position must be a whole number from 1",
  hidden: "hidden must be true or false",
  published: "This submission is already a guest voice",
  notFound: "Guest voice not found",
} as const;

/** The built-in voices' pictures are the site's own files under /guest-voices/. */
const isBuiltInPicture = (value: string) => /^\/guest-voices\/[A-Za-z0-9_.-]+$/.test(value);
const picture = optional(
  link(
    GUEST_VOICE_MESSAGES.image,
    (value) => isHttpUrl(value) || isObjectPath(value) || isBuiltInPicture(value),
  ),
);

const body = z.pipe(
  z
    .array(z.string("Each paragraph must be text"), GUEST_VOICE_MESSAGES.body)
    .check(z.maxLength(GUEST_VOICE_LIMITS.paragraphs, GUEST_VOICE_MESSAGES.paragraphs)),
  // Only line ends are trimmed: a line's leading spaces are its indentation. A blank paragraph
  // is a spacer, kept as "".
  z.pipe(
    z.transform((paragraphs: string[]) =>
      paragraphs.map((paragraph) =>
        paragraph
          .split("\n")
          .map((line) => line.trimEnd())
          .join("\n")
          .replace(/^\n+|\n+$/g, ""),
      ),
    ),
    z
      .array(
        z.string().check(z.maxLength(GUEST_VOICE_LIMITS.paragraph, GUEST_VOICE_MESSAGES.paragraph)),
      )
      .check(
        z.refine(
          (paragraphs) => paragraphs.some((paragraph) => paragraph.trim() !== ""),
          GUEST_VOICE_MESSAGES.body,
        ),
      ),
  ),
);

const fields = {
  name: requiredText(GUEST_VOICE_MESSAGES.name, GUEST_VOICE_LIMITS.name),
  handle: z
    .string(GUEST_VOICE_MESSAGES.handle)
    .check(z.trim(), z.maxLength(GUEST_VOICE_LIMITS.handle, GUEST_VOICE_MESSAGES.handle)),
  socialUrl: link(GUEST_VOICE_MESSAGES.socialUrl, (value) => value === "" || isHttpUrl(value)),
  avatarUrl: picture,
  headerImageUrl: picture,
  bio: requiredText(GUEST_VOICE_MESSAGES.bio, GUEST_VOICE_LIMITS.bio),
  title: requiredText(GUEST_VOICE_MESSAGES.title, GUEST_VOICE_LIMITS.title),
  body,
  hidden: z.optional(z.boolean(GUEST_VOICE_MESSAGES.hidden)),
};

/** POST /api/admin/guest-voices; the slug is made from the name when none is sent. */
export const guestVoiceInput = z.object({
  ...fields,
  slug: z.optional(slug),
  handle: z.optional(fields.handle),
  socialUrl: z.optional(fields.socialUrl),
});
export type GuestVoiceInput = z.output<typeof guestVoiceInput>;

/** PUT /api/admin/guest-voices/:id: any subset; `position` moves the voice (1 is first). */
export const guestVoiceUpdate = z.object({
  name: z.optional(fields.name),
  slug: z.optional(slug),
  handle: z.optional(fields.handle),
  socialUrl: z.optional(fields.socialUrl),
  avatarUrl: z.optional(picture),
  headerImageUrl: z.optional(picture),
  bio: z.optional(fields.bio),
  title: z.optional(fields.title),
  body: z.optional(body),
  hidden: fields.hidden,
  position: z.optional(
    z
      .number(GUEST_VOICE_MESSAGES.position)
      .check(z.int(GUEST_VOICE_MESSAGES.position), z.gte(1, GUEST_VOICE_MESSAGES.position)),
  ),
});
export type GuestVoiceUpdate = z.output<typeof guestVoiceUpdate>;

/** A guest voice as the admin's list and the reader's pages have it. */
export const guestVoice = z.object({
  id: z.int(),
  slug: z.string(),
  name: z.string(),
  handle: z.string(),
  socialUrl: z.string(),
  avatarUrl: z.nullable(z.string()),
  headerImageUrl: z.nullable(z.string()),
  bio: z.string(),
  title: z.string(),
  /** The poem's first three lines, for the lists. */
  excerpt: z.array(z.string()),
  body: z.array(z.string()),
  otherWorks: z.array(z.object({ title: z.string(), slug: z.string() })),
  position: z.int(),
  hidden: z.boolean(),
  submissionId: z.nullable(z.int()),
});
export type StoredGuestVoice = z.output<typeof guestVoice>;
