import { z } from "zod/mini";
import { BOOK_SLOTS } from "../book-slots.ts";
import { HOME_THEMES, POETRY_PILLARS } from "../constants.ts";
import { isHttpUrl } from "./admin.ts";
import { CHAPBOOK_FACES } from "./chapbook-faces.ts";

/**
 * The poet's site settings (docs/decisions/039-site-settings.md): GET and PUT
 * /api/admin/settings answer the whole object; a PUT sends any part of it.
 */

export const SITE_TITLE_MAX_LENGTH = 80;
export const TAGLINE_MAX_LENGTH = 160;
export const POET_NAME_MAX_LENGTH = 80;
export const POET_BIO_MAX_LENGTH = 1_000;
export const LINK_LABEL_MAX_LENGTH = 40;
export const LINKS_MAX = 10;
export const BOOK_SLOT_TITLE_MAX_LENGTH = 120;
export const BOOK_LABEL_MAX_LENGTH = 80;
export const PULL_QUOTE_MAX_LENGTH = 300;
export const COMING_SOON_MAX_LENGTH = 40;
export const BOOKS_CLOSING_MAX_LENGTH = 600;
const URL_MAX_LENGTH = 2_000;
/** The earliest year a copyright line may start from. */
export const COPYRIGHT_FROM_MIN = 1900;

/** How many of each the pages show: /poetry's filter chips and home's 'Current Themes'. */
export const FILTER_TAG_COUNT = POETRY_PILLARS.length;
export const HOME_THEME_COUNT = HOME_THEMES.length;
export const BOOK_SLOT_COUNT = BOOK_SLOTS.length;

export const PORTRAIT_MESSAGE = "The portrait must be an image uploaded here";
export const UNKNOWN_TAG_MESSAGE = "Choose tags from the list";
export const FUTURE_YEAR_MESSAGE = "The first year cannot be in the future";
export const PINNED_POEM_MESSAGE = "Choose a published poem from the list";
const FILTER_TAGS_MESSAGE = `Choose exactly ${FILTER_TAG_COUNT} different tags, or none for the defaults`;
const HOME_THEMES_MESSAGE = `Choose exactly ${HOME_THEME_COUNT} different tags, or none for the defaults`;
const YEAR_MESSAGE = "The first year must be a year such as 2024";

const tooLong = (what: string, max: number) => `${what} must be ${max} characters or less`;

/** Text the poet may leave empty: empty means "not set" (the default). */
const optionalText = (what: string, max: number) =>
  z.nullable(
    z.string(`${what} must be text`).check(z.trim(), z.maxLength(max, tooLong(what, max))),
  );

/** Words the poet may clear: empty hides them on the page, where a title would fall back. */
const clearableText = (what: string, max: number) =>
  z.string(`${what} must be text`).check(z.trim(), z.maxLength(max, tooLong(what, max)));

const BOOKS_PAGE_SLOTS_MESSAGE = `Give the words of the ${BOOK_SLOT_COUNT} book slots`;

/** The Books page's words (common/book-slots.ts): each slot's, and the closing sentence. */
const booksPage = z.object({
  slots: z
    .array(
      z.object({
        label: clearableText("A slot's label", BOOK_LABEL_MAX_LENGTH),
        pullQuote: clearableText("A pull quote", PULL_QUOTE_MAX_LENGTH),
        comingSoon: clearableText("The 'Coming Soon' text", COMING_SOON_MAX_LENGTH),
        isHiddenWhenEmpty: z.boolean("isHiddenWhenEmpty must be true or false"),
      }),
      BOOKS_PAGE_SLOTS_MESSAGE,
    )
    .check(z.length(BOOK_SLOT_COUNT, BOOKS_PAGE_SLOTS_MESSAGE)),
  closing: clearableText("The closing sentence", BOOKS_CLOSING_MAX_LENGTH),
});

/** An uploaded image's path on this site: the upload flow stores nothing there but images. */
export const isUploadedImagePath = (value: string) =>
  /^\/objects\/images\/[A-Za-z0-9_-]+$/.test(value);

const link = z.object({
  label: z
    .string("Each link needs a label")
    .check(
      z.trim(),
      z.minLength(1, "Each link needs a label"),
      z.maxLength(LINK_LABEL_MAX_LENGTH, tooLong("A link label", LINK_LABEL_MAX_LENGTH)),
    ),
  url: z
    .string("Each link needs a URL")
    .check(
      z.trim(),
      z.maxLength(URL_MAX_LENGTH, tooLong("A link", URL_MAX_LENGTH)),
      z.refine(isHttpUrl, "Each link must be a full http:// or https:// address"),
    ),
});
export type SiteLink = z.output<typeof link>;

const tagChoice = (count: number, message: string) =>
  z.nullable(
    z.array(z.int(message).check(z.positive(message)), message).check(
      z.length(count, message),
      z.refine((ids) => new Set(ids).size === ids.length, message),
    ),
  );

/** PUT /api/admin/settings: any subset of the fields; a refused PUT saves none of them. */
export const siteSettingsInput = z.partial(
  z.strictObject({
    siteTitle: optionalText("The site title", SITE_TITLE_MAX_LENGTH),
    tagline: optionalText("The tagline", TAGLINE_MAX_LENGTH),
    poetName: optionalText("The poet's name", POET_NAME_MAX_LENGTH),
    poetBio: optionalText("The bio", POET_BIO_MAX_LENGTH),
    portraitUrl: z.nullable(
      z.string(PORTRAIT_MESSAGE).check(
        z.trim(),
        z.refine((value) => value === "" || isUploadedImagePath(value), PORTRAIT_MESSAGE),
      ),
    ),
    links: z
      .array(link, "Links must be a list of {label, url}")
      .check(z.maxLength(LINKS_MAX, `Please keep to ${LINKS_MAX} links`)),
    filterTagIds: tagChoice(FILTER_TAG_COUNT, FILTER_TAGS_MESSAGE),
    homeThemeTagIds: tagChoice(HOME_THEME_COUNT, HOME_THEMES_MESSAGE),
    bookSlotTitles: z
      .array(
        z
          .string("Each book slot needs a title")
          .check(
            z.trim(),
            z.minLength(1, "Each book slot needs a title"),
            z.maxLength(
              BOOK_SLOT_TITLE_MAX_LENGTH,
              tooLong("A book slot title", BOOK_SLOT_TITLE_MAX_LENGTH),
            ),
          ),
        `Give the ${BOOK_SLOT_COUNT} book slots' titles`,
      )
      .check(z.length(BOOK_SLOT_COUNT, `Give the ${BOOK_SLOT_COUNT} book slots' titles`)),
    copyrightFrom: z.nullable(
      z.int(YEAR_MESSAGE).check(z.gte(COPYRIGHT_FROM_MIN, YEAR_MESSAGE), z.lte(9999, YEAR_MESSAGE)),
    ),
    holdWhispers: z.boolean("holdWhispers must be true or false"),
    chapbookFace: z.enum(CHAPBOOK_FACES, "Choose EB Garamond or Libre Baskerville"),
    stanzaNotesCarryReading: z.boolean("stanzaNotesCarryReading must be true or false"),
    booksPage,
    pinnedPoemId: z.nullable(z.int(PINNED_POEM_MESSAGE).check(z.positive(PINNED_POEM_MESSAGE))),
  }),
);
export type SiteSettingsInput = z.infer<typeof siteSettingsInput>;

/**
 * GET and PUT /api/admin/settings. The title, tagline, slot titles and Books page words answer
 * what the pages show (the defaults until set); the tag choices answer null for the defaults,
 * which are names, not tags.
 */
export const siteSettings = z.object({
  siteTitle: z.string(),
  tagline: z.string(),
  poetName: z.nullable(z.string()),
  poetBio: z.nullable(z.string()),
  portraitUrl: z.nullable(z.string()),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  filterTagIds: z.nullable(z.array(z.int())),
  homeThemeTagIds: z.nullable(z.array(z.int())),
  bookSlotTitles: z.array(z.string()),
  copyrightFrom: z.nullable(z.int()),
  holdWhispers: z.boolean(),
  /** The face the chapbooks are set in (docs/decisions/074-chapbook-cover-and-face.md). */
  chapbookFace: z.enum(CHAPBOOK_FACES),
  /** A stanza's Note carries its part of the reading (docs/decisions/073). */
  stanzaNotesCarryReading: z.boolean(),
  /** The Books page's words as it shows them: the originals until set, '' where cleared. */
  booksPage: z.object({
    slots: z.array(
      z.object({
        label: z.string(),
        pullQuote: z.string(),
        comingSoon: z.string(),
        isHiddenWhenEmpty: z.boolean(),
      }),
    ),
    closing: z.string(),
  }),
  /** The poem home shows first; null: the newest. */
  pinnedPoemId: z.nullable(z.int()),
});
export type SiteSettings = z.output<typeof siteSettings>;
