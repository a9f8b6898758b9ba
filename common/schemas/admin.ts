import { z } from "zod/mini";
import { SLUG_PATTERN } from "../slug.ts";
import { dateTime } from "./answer.ts";
import { emberFields } from "./embers.ts";
import { digitsInText } from "./input.ts";
import { fediverseOrigin, stanzaIndexInput, whisperAuthor } from "./interactions.ts";
import { tagRef } from "./poems.ts";

/**
 * The admin's inputs (docs/product/admin.md): one schema each, with the spec's messages, used by
 * the server for every admin write.
 */

export const TAG_NAME_MAX_LENGTH = 50;
const URL_MAX_LENGTH = 2_000;

export const requiredText = (message: string, max: number) =>
  z
    .string(message)
    .check(
      z.trim(),
      z.minLength(1, message),
      z.maxLength(max, `Please keep this under ${max} characters`),
    );

export const slug = z
  .string("Slug is required")
  .check(
    z.trim(),
    z.minLength(1, "Slug is required"),
    z.maxLength(200, "Please keep this under 200 characters"),
    z.regex(SLUG_PATTERN, "Slug must be lowercase letters, numbers, and hyphens only"),
  );

/** An absolute http: or https: address. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function isHttpsUrl(value: string): boolean {
  return isHttpUrl(value) && new URL(value).protocol === "https:";
}

/** An uploaded image's path on this site (docs/product/admin.md, Uploads: /objects/images/{id}). */
export const isObjectPath = (value: string) =>
  /^\/objects\/[A-Za-z0-9/_.-]+$/.test(value) && !value.includes("..");

/** An uploaded reading's path on this site: /objects/audio/{id}. */
const isAudioObjectPath = (value: string) => /^\/objects\/audio\/[A-Za-z0-9_-]+$/.test(value);

/**
 * A poem's audioUrl is an uploaded recording or an https: URL: what the page's media-src allows
 * (decision 018), so an accepted one is never blocked on the page.
 */
export const AUDIO_URL_MESSAGE =
  "Audio must be an https:// URL or an uploaded /objects/audio/ file";

export const link = (message: string, accepts: (value: string) => boolean) =>
  z
    .string(message)
    .check(z.trim(), z.maxLength(URL_MAX_LENGTH, message), z.refine(accepts, message));

/** Empty or absent is "none" (null); anything else must pass `schema`. */
export const optional = <Schema extends z.ZodMiniType>(schema: Schema) =>
  z.pipe(
    z.optional(z.union([z.literal(""), z.null(), schema])),
    z.transform((value) => (value === "" || value === undefined ? null : value)),
  );

const tagIds = z
  .array(z.number().check(z.int(), z.positive()), "Tags must be a list of tag ids")
  .check(z.maxLength(50));

/**
 * Publication, beyond the spec's payload (left out, a poem or book is published at once on
 * create, and keeps its state on update): a draft is never shown to readers; publishAt, an ISO
 * 8601 date-time with its offset, is when they first see it (future: scheduled).
 */
const publication = {
  draft: z.optional(z.boolean("draft must be true or false")),
  publishAt: z.optional(
    z.pipe(
      z.pipe(
        z.string("Invalid date format"),
        z.iso.datetime({ offset: true, error: "Invalid date format" }),
      ),
      z.transform((value) => new Date(value)),
    ),
  ),
};

export const poemInput = z.object({
  title: requiredText("Title is required", 300),
  slug,
  stanzas: z.pipe(
    z.pipe(
      z
        .array(z.string("Each stanza must be text"), "At least one stanza is required")
        .check(z.maxLength(500, "Please keep a poem under 500 stanzas")),
      // Only the end is trimmed: a stanza's leading spaces are its first line's indentation
      // (docs/product/admin.md, Poems). A stanza of nothing but spaces is dropped.
      z.transform((stanzas) =>
        stanzas.map((stanza) => stanza.trimEnd()).filter((stanza) => stanza.trim().length > 0),
      ),
    ),
    z
      .array(
        z.string().check(z.maxLength(10_000, "Please keep each stanza under 10000 characters")),
      )
      .check(z.minLength(1, "At least one stanza is required")),
  ),
  audioUrl: optional(
    link(AUDIO_URL_MESSAGE, (value) => isHttpsUrl(value) || isAudioObjectPath(value)),
  ),
  coverUrl: optional(
    link(
      "Must be a valid URL or object storage path",
      (value) => isHttpUrl(value) || isObjectPath(value),
    ),
  ),
  coverAlt: optional(
    z.string().check(z.trim(), z.maxLength(300, "Please keep this under 300 characters")),
  ),
  coverWidth: optional(z.number().check(z.int(), z.gte(1), z.lte(20_000))),
  coverHeight: optional(z.number().check(z.int(), z.gte(1), z.lte(20_000))),
  // The form sends it; the server derives it from the cover all the same (docs/product/admin.md).
  coverProvider: optional(z.enum(["object-storage", "url"])),
  tagIds: tagIds.check(z.minLength(1, "At least one tag is required")),
  ...publication,
  /**
   * Where each stanza begins in the reading, in seconds (docs/product/chapbook.md). Left out, a
   * save keeps them while the stanzas and the reading stay the same; null clears them. Checked
   * against the stanzas and `readingDuration` by the server (common/stanza-timings.ts).
   */
  stanzaTimings: z.optional(
    z.nullable(
      z
        .array(
          z.number("Each time must be a number of seconds"),
          "stanzaTimings must be a list of seconds",
        )
        .check(z.maxLength(500, "Mark one time per stanza")),
    ),
  ),
  /** The reading's length in seconds, as the editor's player measured it. */
  readingDuration: z.optional(
    z.nullable(
      z
        .number("The reading's duration must be a number of seconds")
        .check(
          z.gt(0, "The reading's duration must be more than 0 seconds"),
          z.lte(86_400, "The reading's duration must be under a day"),
        ),
    ),
  ),
});
export type PoemInput = z.infer<typeof poemInput>;

/**
 * The poem form as it stands, unsaved, sent by the editor's 'Preview' to the poem's page, which
 * shows it to the poet as readers will see it (docs/product/admin.md, Preview). It is read, never
 * stored: what the form holds is shown as it is, so only its shape and sizes are checked.
 */
export const poemPreviewInput = z.object({
  title: z.string().check(z.maxLength(300)),
  slug: z.string().check(z.maxLength(200)),
  stanzas: z.array(z.string().check(z.maxLength(10_000))).check(z.maxLength(500)),
  audioUrl: z.string().check(z.maxLength(URL_MAX_LENGTH)),
  coverUrl: z.string().check(z.maxLength(URL_MAX_LENGTH)),
  coverAlt: z.string().check(z.maxLength(300)),
  coverWidth: z.nullable(z.int()),
  coverHeight: z.nullable(z.int()),
  tagIds: tagIds,
  stanzaTimings: z.optional(z.nullable(z.array(z.number()).check(z.maxLength(500)))),
  publishAt: z.optional(z.iso.datetime({ offset: true })),
});
export type PoemPreviewInput = z.infer<typeof poemPreviewInput>;

/** A calendar day: 'YYYY-MM-DD', or any date-time, whose UTC day is taken. */
const emberDate = z.pipe(
  z.string("Date is required").check(
    z.trim(),
    z.minLength(1, "Date is required"),
    z.refine((value) => !Number.isNaN(Date.parse(value)), "Invalid date format"),
  ),
  z.transform((value) =>
    /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : new Date(value).toISOString().slice(0, 10),
  ),
);

export const emberInput = z.object({
  text: requiredText("Text is required", 2_000),
  date: emberDate,
  /** Beyond the spec's {text, date}: left out, an update keeps the ember's tags and feature. */
  tagIds: z.optional(tagIds),
  /** The Ember of the Week (embers.isFeatured, featuredAt). */
  isFeatured: z.optional(z.boolean("isFeatured must be true or false")),
});
export type EmberInput = z.infer<typeof emberInput>;

export const bookInput = z.object({
  title: requiredText("Title is required", 300),
  slug,
  blurb: requiredText("Blurb is required", 5_000),
  coverUrl: link("Must be a valid URL", (value) => isHttpUrl(value) || isObjectPath(value)),
  buyUrl: link("Must be a valid URL", isHttpUrl),
  pages: z._default(
    z
      .array(
        z.object({
          title: requiredText("Page title is required", 300),
          content: requiredText("Page content is required", 20_000),
        }),
        "Pages must be a list",
      )
      .check(z.maxLength(100, "Please keep a book under 100 pages")),
    [],
  ),
  ...publication,
});
export type BookInput = z.infer<typeof bookInput>;

export const tagInput = z.object({
  name: z
    .string("Tag name is required")
    .check(
      z.trim(),
      z.minLength(1, "Tag name is required"),
      z.maxLength(TAG_NAME_MAX_LENGTH, "Tag name must be 50 characters or less"),
    ),
});
export type TagInput = z.infer<typeof tagInput>;

/** An ember as the admin's schedule shows it (GET /api/admin/embers), which its writes answer. */
export const scheduledEmber = z.extend(emberFields, {
  createdAt: dateTime,
  updatedAt: dateTime,
  tags: z.array(tagRef),
});
export type ScheduledEmber = z.output<typeof scheduledEmber>;

/** GET /api/admin/embers?limit: the schedule reads at most 30 (docs/product/limits.md). */
export const emberScheduleQuery = z.object({
  limit: z.optional(digitsInText(3, "limit must be a positive integer")),
});

/**
 * A whisper in the admin's moderation list (docs/product/admin.md, Whispers): approved or hidden,
 * with its poem and stanza (and how many stanzas the poem has, to move it to another). A reply
 * from the fediverse carries where it came from, and its whole text even where readers are shown
 * it cut (docs/decisions/046-fediverse-voices.md).
 */
export const moderatedWhisper = z.object({
  id: z.int(),
  text: z.string(),
  isApproved: z.boolean(),
  /** Held for the poet's approval, as opposed to hidden by the poet (decision 057). */
  isAwaitingApproval: z.boolean(),
  createdAt: dateTime,
  stanzaIndex: z.int().check(z.gte(0)),
  stanzaCount: z.int(),
  poemSlug: z.string(),
  poemTitle: z.string(),
  /**
   * The poet also sees who wrote it (their address; none for a fediverse author) and whether
   * they are blocked.
   */
  user: z.extend(whisperAuthor, {
    id: z.string(),
    email: z.nullable(z.string()),
    isAdmin: z.boolean(),
    isBlocked: z.boolean(),
  }),
  fediverse: z.nullable(fediverseOrigin),
});
export type ModeratedWhisper = z.output<typeof moderatedWhisper>;

/** POST /api/admin/whispers/{id}/move: the stanza of the same poem the whisper moves to. */
export const moveWhisperInput = z.object({ stanzaIndex: stanzaIndexInput });

/**
 * GET /api/admin/fediverse/reactions: per poem that has any, what came from the fediverse —
 * boosts (counted only here), likes (echoes by fediverse authors) and replies (whispers by them,
 * approved or not) (docs/decisions/046-fediverse-voices.md).
 */
export const fediverseReactions = z.array(
  z.object({
    poemId: z.int(),
    slug: z.string(),
    title: z.string(),
    boosts: z.int(),
    likes: z.int(),
    replies: z.int(),
  }),
);
export type FediverseReactions = z.output<typeof fediverseReactions>;
