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
const FILTER_TAGS_MESSAGE = `Choose exactly ${FILTER_TAG_COUNT} different tags, or none for the defaults`;
const HOME_THEMES_MESSAGE = `Choose exactly ${HOME_THEME_COUNT} different tags, or none for the defaults`;
const YEAR_MESSAGE = "The first year must be a year such as 2024";

const tooLong = (what: string, max: number) => `${what} must be ${max} characters or less`;

/** Text the poet may leave empty: empty means "not set" (the default). */
const optionalText = (what: string, max: number) =>
  z.nullable(
    z.string(`${what} must be text`).check(z.trim(), z.maxLength(max, tooLong(what, max))),
  );

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
  }),
);
export type SiteSettingsInput = z.infer<typeof siteSettingsInput>;

/**
 * GET and PUT /api/admin/settings. The title, tagline and slot titles answer what the pages show
 * (the defaults until set); the tag choices answer null for the defaults, which are names, not tags.
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
});
export type SiteSettings = z.output<typeof siteSettings>;
