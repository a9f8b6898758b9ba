import { z } from "zod";
import { POEMS_MAX_LIMIT } from "../constants.ts";
import { dateTime } from "./answer.ts";
import { emberFields } from "./embers.ts";

export const tagRef = z.object({ id: z.number().int(), name: z.string() });
export type TagRef = z.output<typeof tagRef>;

/** A poem as every read and every admin write answers it (GET /api/poems, /api/poems/{slug}). */
export const poem = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  stanzas: z.array(z.string()),
  audioUrl: z.string().nullable(),
  coverUrl: z.string().nullable(),
  coverAlt: z.string().nullable(),
  coverWidth: z.number().int().nullable(),
  coverHeight: z.number().int().nullable(),
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
  echoes: z.number().int(),
  whispers: z.number().int(),
  journalEntries: z.number().int(),
});
export type RemovedStanzaWords = z.output<typeof removedStanzaWords>;

/** A poem as the Poems tab lists it and the admin's writes answer it. */
export const adminPoem = poem.extend({ removedStanzaWords });
export type AdminPoem = z.output<typeof adminPoem>;

/** An earlier version of a poem (GET /api/admin/poems/{id}/versions), newest first. */
export const poemVersion = z.object({
  id: z.number().int(),
  title: z.string(),
  stanzaCount: z.number().int(),
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
    emberFields.pick({ id: true, text: true, date: true, isFeatured: true }).extend({
      tags: z.array(tagRef),
    }),
  ),
});
export type Theme = z.output<typeof theme>;

const count = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((value) => value <= max, `${name} must be at most ${max}`);

/** GET /api/poems: the spec's optional tag; beyond it, `limit` and `offset` page through. */
export const poemListQuery = z.object({
  tag: z.string().max(200).optional(),
  limit: count("limit", POEMS_MAX_LIMIT)
    .refine((value) => value >= 1, "limit must be at least 1")
    .optional(),
  offset: count("offset", 1_000_000).optional(),
});
