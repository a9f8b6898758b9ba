import { z } from "zod";
import { WHISPER_MAX_LENGTH } from "../constants.ts";
import { visibleLength } from "../text.ts";

export const WHISPER_TOO_LONG = "Whisper must be 280 characters or less";
export const WHISPER_EMPTY = "Whisper cannot be empty";
export const STANZA_INDEX_INVALID = "stanzaIndex must be a whole number";

/** A stanza index as a number or a numeric string (0-based); validated against the poem later. */
export const stanzaIndexInput = z.union([
  z.number().int(STANZA_INDEX_INVALID),
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, STANZA_INDEX_INVALID)
    .transform(Number),
]);

/** POST /api/poems/{slug}/echo: absent or empty stanzaIndex means the whole poem. */
export const echoInput = z.object({
  stanzaIndex: z
    .union([z.literal(""), z.null(), stanzaIndexInput])
    .optional()
    .transform((value) => (value === "" || value === null || value === undefined ? null : value)),
});

/** POST /api/poems/{slug}/whispers: the text is sent as `body`, trimmed, 1 to 280 characters. */
export const whisperInput = z.object({
  stanzaIndex: stanzaIndexInput,
  body: z
    .string(WHISPER_EMPTY)
    .trim()
    .refine((text) => text.length > 0, WHISPER_EMPTY)
    .refine((text) => visibleLength(text) <= WHISPER_MAX_LENGTH, WHISPER_TOO_LONG),
});

/** POST and PUT /api/journal. */
export const journalInput = z.object({
  poemSlug: z.string().trim().min(1, "poemSlug is required").max(200),
  stanzaIndex: stanzaIndexInput,
});
