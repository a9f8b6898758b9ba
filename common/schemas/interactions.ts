import { z } from "zod/mini";
import { WHISPER_MAX_LENGTH } from "../constants.ts";
import { ECHOED_STANZA_TEXT, echoedStanzaFromText, echoedStanzaToText } from "../echo-counts.ts";
import { isWithinVisibleLength } from "../text.ts";
import { dateTime } from "./answer.ts";

export const WHISPER_TOO_LONG = "Whisper must be 280 characters or less";
export const WHISPER_EMPTY = "Whisper cannot be empty";
export const STANZA_INDEX_INVALID = "stanzaIndex must be a whole number";

/** A stanza index as a number or a numeric string (0-based); validated against the poem later. */
export const stanzaIndexInput = z.union([
  z.number().check(z.int(STANZA_INDEX_INVALID)),
  z.pipe(z.string().check(z.trim(), z.regex(/^-?\d+$/, STANZA_INDEX_INVALID)), z.transform(Number)),
]);

/** POST /api/poems/{slug}/echo: absent or empty stanzaIndex means the whole poem. */
export const echoInput = z.object({
  stanzaIndex: z.pipe(
    z.optional(z.union([z.literal(""), z.null(), stanzaIndexInput])),
    z.transform((value) => (value === "" || value === null || value === undefined ? null : value)),
  ),
});

/** POST /api/poems/{slug}/whispers: the text is sent as `body`, trimmed, 1 to 280 characters. */
export const whisperInput = z.object({
  stanzaIndex: stanzaIndexInput,
  body: z.string(WHISPER_EMPTY).check(
    z.trim(),
    z.refine((text) => text.length > 0, WHISPER_EMPTY),
    z.refine((text) => isWithinVisibleLength(text, WHISPER_MAX_LENGTH), WHISPER_TOO_LONG),
  ),
});

/** POST and PUT /api/journal. */
export const journalInput = z.object({
  poemSlug: z.string().check(z.trim(), z.minLength(1, "poemSlug is required"), z.maxLength(200)),
  stanzaIndex: stanzaIndexInput,
});

/**
 * A stanza index where the database keeps it as text (echoes, journal entries): on the wire the
 * stored string, as the clients read it ("2"; "" for a whole-poem echo); in code a
 * number, like every other stanza index (docs/decisions/019-one-contract.md).
 */
const storedStanzaIndex = z.codec(
  z.string().check(z.regex(/^(0|[1-9]\d*)$/)),
  z.int().check(z.gte(0)),
  {
    decode: Number,
    encode: String,
  },
);
/** An echo's stanza: null is the whole poem, stored and sent as "". */
const echoedStanzaIndex = z.codec(
  z.string().check(z.regex(ECHOED_STANZA_TEXT)),
  z.nullable(z.int().check(z.gte(0))),
  { decode: echoedStanzaFromText, encode: echoedStanzaToText },
);

/** GET /api/poems/{slug}/echos: per stanza, how many echoes and whether one is the reader's. */
export const echoCounts = z.array(
  z.object({ stanzaIndex: echoedStanzaIndex, count: z.int(), userHasEchoed: z.boolean() }),
);
export type EchoCount = z.output<typeof echoCounts>[number];

/** What an echo or journal toggle changed (docs/product/interactions.md: an 'added' flag). */
export const toggleAnswer = z.object({ added: z.boolean() });

/** A whisper's author as readers see them (docs/product/interactions.md, Whispers). */
export const whisperAuthor = z.object({
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  profileImageUrl: z.nullable(z.string()),
});

/**
 * Where a whisper that came as a reply from the fediverse was written: its author's name (null
 * when their account has none), "@name@server" handle, server, profile, and the original post,
 * which holds the whole reply when `isCut` (docs/decisions/046-fediverse-voices.md). No avatar:
 * readers' browsers never load one from a remote server.
 */
export const fediverseOrigin = z.object({
  name: z.nullable(z.string()),
  handle: z.string(),
  server: z.string(),
  profileUrl: z.nullable(z.string()),
  postUrl: z.nullable(z.string()),
  isCut: z.boolean(),
});
export type FediverseOrigin = z.output<typeof fediverseOrigin>;

/**
 * A whisper (docs/product/api.md): POST /api/poems/{slug}/whispers answers one, GET lists them.
 * `fediverse` is null for a reader's whisper.
 */
export const whisper = z.object({
  id: z.int(),
  userId: z.string(),
  text: z.string(),
  createdAt: dateTime,
  user: whisperAuthor,
  fediverse: z.nullable(fediverseOrigin),
  /**
   * Only on the reader's own whisper the poet has not approved yet: shown to them alone, marked
   * 'Awaiting approval' (docs/decisions/057-a-stanza-link-and-a-held-whisper.md).
   */
  isAwaitingApproval: z.optional(z.boolean()),
});
export type Whisper = z.output<typeof whisper>;

/**
 * POST /api/poems/{slug}/whispers: the whisper, and whether it shows at once or is held, hidden,
 * until the poet approves it (the site's "hold new whispers" setting).
 */
export const sharedWhisper = z.extend(whisper, { isApproved: z.boolean() });
export type SharedWhisper = z.output<typeof sharedWhisper>;

/** GET /api/journal (docs/product/interactions.md, Journal). */
export const journalEntries = z.array(
  z.object({
    id: z.int(),
    stanzaIndex: storedStanzaIndex,
    createdAt: dateTime,
    poem: z.object({ slug: z.string(), title: z.string(), stanzas: z.array(z.string()) }),
  }),
);
export type JournalEntry = z.output<typeof journalEntries>[number];

/** GET /api/poems/{slug}/journal: the stanzas of one poem in the reader's journal. */
export const savedStanzas = z.array(storedStanzaIndex);
