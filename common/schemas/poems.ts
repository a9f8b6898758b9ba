import { z } from "zod/mini";
import { POEMS_MAX_LIMIT } from "../constants.ts";
import { dateTime } from "./answer.ts";
import { emberFields } from "./embers.ts";
import { digitsInText } from "./input.ts";

export const tagRef = z.object({ id: z.int(), name: z.string() });
export type TagRef = z.output<typeof tagRef>;

/** A poem as every read and every admin write answers it (GET /api/poems, /api/poems/{slug}). */
export const poem = z.object({
  id: z.int(),
  title: z.string(),
  slug: z.string(),
  stanzas: z.array(z.string()),
  audioUrl: z.nullable(z.string()),
  /** Where each stanza begins in the reading, in seconds (docs/product/chapbook.md). */
  stanzaTimings: z.nullable(z.array(z.number())),
  /** The reading's length in seconds, when its stanzas are timed. */
  readingDuration: z.nullable(z.number()),
  coverUrl: z.nullable(z.string()),
  coverAlt: z.nullable(z.string()),
  coverWidth: z.nullable(z.int()),
  coverHeight: z.nullable(z.int()),
  /** Never shown to readers while true (server/db/visibility.ts). */
  draft: z.boolean(),
  /** When readers first see it: a future one is a scheduled poem. */
  publishAt: dateTime,
  createdAt: dateTime,
  updatedAt: dateTime,
  tags: z.array(tagRef),
});
export type Poem = z.output<typeof poem>;

/** Readers' words kept aside on stanzas a revision removed (hidden from readers). */
export const removedStanzaWords = z.object({
  echoes: z.int(),
  whispers: z.int(),
  journalEntries: z.int(),
});
export type RemovedStanzaWords = z.output<typeof removedStanzaWords>;

/** A poem as the Poems tab lists it and the admin's writes answer it. */
export const adminPoem = z.extend(poem, { removedStanzaWords });
export type AdminPoem = z.output<typeof adminPoem>;

/** An earlier version of a poem (GET /api/admin/poems/{id}/versions), newest first. */
export const poemVersion = z.object({
  id: z.int(),
  title: z.string(),
  /** Its whole text, so the poet sees what a restore would change before asking for it. */
  stanzas: z.array(z.string()),
  stanzaCount: z.int(),
  firstLine: z.string(),
  /** When this version was saved. */
  savedAt: dateTime,
  /** When a later save replaced it. */
  replacedAt: dateTime,
});
export type PoemVersion = z.output<typeof poemVersion>;

/** GET /api/themes/{slug}: a tag's poems and its published embers. */
export const theme = z.object({
  tag: tagRef,
  poems: z.array(poem),
  embers: z.array(
    z.extend(z.pick(emberFields, { id: true, text: true, date: true, isFeatured: true }), {
      tags: z.array(tagRef),
    }),
  ),
});
export type Theme = z.output<typeof theme>;

const count = (name: string, max: number) =>
  digitsInText(6, `${name} must be a whole number`).check(
    z.refine((value) => value <= max, `${name} must be at most ${max}`),
  );

/** GET /api/poems: the spec's optional tag; beyond it, `limit` and `offset` page through. */
export const poemListQuery = z.object({
  tag: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(
    count("limit", POEMS_MAX_LIMIT).check(
      z.refine((value) => value >= 1, "limit must be at least 1"),
    ),
  ),
  offset: z.optional(count("offset", 1_000_000)),
});
