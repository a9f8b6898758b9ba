import { z } from "zod/mini";
import { DISPLAY_NAME_MAX_LENGTH } from "../constants.ts";
import { normaliseDisplayName } from "../display-name.ts";
import { isStorableText, isWithinVisibleLength, UNSTORABLE_TEXT_MESSAGE } from "../text.ts";
import { dateTime } from "./answer.ts";
import { emailAddress } from "./subscription.ts";

/** The person a session belongs to, as the server resolves it once per request. */
export const sessionUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  profileImageUrl: z.nullable(z.string()),
  role: z.enum(["USER", "ADMIN"]),
  /** Blocked by the poet: may read and keep a journal, not echo or whisper. */
  isBlocked: z.boolean(),
});

/** GET /api/auth/user (docs/product/api.md: the role and an authenticated flag). */
export const currentUser = z.extend(sessionUser, { authenticated: z.literal(true) });

/** POST /api/auth/email-link, from the sign-in page's script or its form. */
export const signInLinkRequest = z.object({
  email: emailAddress,
  returnTo: z.optional(z.string().check(z.maxLength(2000))),
});

export const DISPLAY_NAME_TOO_LONG = `Display name must be ${DISPLAY_NAME_MAX_LENGTH} characters or less`;
export const AVATAR_NOT_UPLOADED = "Avatar must be an image uploaded here";
/** What a blocked reader's echo and whisper calls answer (403). */
export const READER_BLOCKED_MESSAGE = "Your account cannot do this";
export const ACCOUNT_ALREADY_DELETED = "This account has already been deleted";
export const CANNOT_BLOCK_ADMIN = "An admin cannot be blocked";

/**
 * A display name as typed: plain text, normalised (common/display-name.ts); empty or null
 * removes the name, and whispers show 'Anonymous' again.
 */
const displayNameInput = z.pipe(
  z.pipe(
    z.nullable(z.string("Display name must be text")),
    z.transform((name) => (name === null ? "" : normaliseDisplayName(name))),
  ),
  z.pipe(
    z.string().check(
      z.refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
      z.refine(
        (name) => isWithinVisibleLength(name, DISPLAY_NAME_MAX_LENGTH),
        DISPLAY_NAME_TOO_LONG,
      ),
    ),
    z.transform((name) => name || null),
  ),
);

/** An avatar is an image uploaded through the site's own upload flow, or none. */
const avatarUrlInput = z.nullable(
  z
    .string(AVATAR_NOT_UPLOADED)
    .check(z.regex(/^\/objects\/images\/[A-Za-z0-9-]{1,64}$/, AVATAR_NOT_UPLOADED)),
);

/** PUT /api/account: any of the two fields; one left out stays as it is. */
export const accountInput = z.object({
  displayName: z.optional(displayNameInput),
  avatarUrl: z.optional(avatarUrlInput),
});
export type AccountInput = z.output<typeof accountInput>;

/** GET and PUT /api/account: what the reader may change, and the email they sign in with. */
export const readerAccount = z.object({
  email: z.string(),
  displayName: z.nullable(z.string()),
  avatarUrl: z.nullable(z.string()),
});
export type ReaderAccount = z.output<typeof readerAccount>;

/**
 * A stanza a reader's row is on: the poem, the stanza numbered as readers see it ('Stanza 2' is
 * 2) and its words (both null: the whole poem).
 */
const exportedPlace = {
  poemSlug: z.string(),
  poemTitle: z.string(),
  stanza: z.nullable(z.int()),
  stanzaText: z.nullable(z.string()),
  createdAt: dateTime,
};

/** GET /api/account/export: everything the site keeps of a reader, as one JSON document. */
export const accountExport = z.object({
  exportedAt: dateTime,
  account: z.extend(readerAccount, { createdAt: dateTime }),
  journal: z.array(z.object(exportedPlace)),
  whispers: z.array(z.object({ ...exportedPlace, text: z.string(), isApproved: z.boolean() })),
  echoes: z.array(z.object(exportedPlace)),
  /** The digest subscription of the reader's address, whoever made it; null when there is none. */
  digestSubscription: z.nullable(
    z.object({
      email: z.string(),
      subscribedAt: dateTime,
      confirmed: z.boolean(),
      confirmedAt: z.nullable(dateTime),
      unsubscribed: z.boolean(),
      unsubscribedAt: z.nullable(dateTime),
      /** The platform the reader subscribed on, for a subscriber brought by an import. */
      consentSource: z.nullable(z.string()),
    }),
  ),
});
export type AccountExport = z.output<typeof accountExport>;
