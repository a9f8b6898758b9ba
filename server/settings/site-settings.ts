import { and, eq, inArray } from "drizzle-orm";
import {
  BOOK_SLOTS,
  type BooksPageWords,
  booksPageWords,
  storedBooksPage,
} from "../../common/book-slots.ts";
import { HOME_THEMES, POETRY_PILLARS } from "../../common/constants.ts";
import { dayInZone } from "../../common/dates.ts";
import { type ChapbookFace, DEFAULT_CHAPBOOK_FACE } from "../../common/schemas/chapbook-faces.ts";
import {
  FUTURE_YEAR_MESSAGE,
  PINNED_POEM_MESSAGE,
  type SiteLink,
  type SiteSettings,
  type SiteSettingsInput,
  UNKNOWN_TAG_MESSAGE,
} from "../../common/schemas/settings.ts";
import { copyrightLine, DEFAULT_TAGLINE } from "../../common/site-settings.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { invalid } from "../core/errors.ts";
import { createMemo } from "../core/memo.ts";
import { poems, siteSettings, tags } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import type { MailSite } from "../mail/html.ts";

/** What the pages show of the settings: names resolved, defaults filled in. */
export interface SiteView {
  siteTitle: string;
  tagline: string;
  poetName: string | null;
  poetBio: string | null;
  portraitUrl: string | null;
  links: SiteLink[];
  /** /poetry's filter chips: tag names, the original four until the poet chooses theirs. */
  filterTags: string[];
  /** Home's 'Current Themes': tag names, the original three until the poet chooses theirs. */
  homeThemes: string[];
  bookSlotTitles: string[];
  /** The Books page's words around its slots: the originals until the poet writes theirs. */
  booksPage: BooksPageWords;
  /** The poem the poet pinned to home, if any (home shows the newest while readers cannot see it). */
  pinnedPoemId: number | null;
  /** The footer's line, in the current year of the site's clock. */
  copyright: string;
  chapbookFace: ChapbookFace;
  /** A stanza's Note carries its part of the reading (docs/decisions/073). */
  stanzaNotesCarryReading: boolean;
}

/**
 * Who the site is, wherever it names itself (pages, emails, share cards, the feed, the manifest,
 * the fediverse actor): the poet's title, SITE_NAME until they set one, and the poet's name.
 */
export interface SiteIdentity {
  name: string;
  poetName: string | null;
}

/** Who an email is from, read when it is written (a title saved a moment ago is already in it). */
export type MailSiteSource = () => Promise<MailSite>;

interface Kept {
  settings: SiteSettings;
  filterTags: string[];
  homeThemes: string[];
}

type StoredRow = typeof siteSettings.$inferSelect;
type StoredValues = Partial<Omit<typeof siteSettings.$inferInsert, "id" | "updatedAt">>;

const ORIGINAL_SLOT_TITLES = BOOK_SLOTS.map((slot) => slot.title);
const SETTINGS_KEY = "settings";

/**
 * The poet's site settings (docs/decisions/039-site-settings.md): one row, read through a memo
 * that every content change clears, and announced like a content write, so every instance and its
 * page cache show a change at once. A value equal to its default is stored as "not set", so
 * the default (SITE_NAME, the original titles) keeps following the configuration and the code.
 */
export function createSiteSettingsService({
  db,
  config,
  now,
  contentChanges,
}: ServiceDeps & { contentChanges: ContentChanges }) {
  const memo = createMemo<Kept>({ maxEntries: 1 });
  contentChanges.onChange(() => memo.clear());

  const currentYear = () => Number(dayInZone(config.siteTimezone, now()).slice(0, 4));

  function settingsOf(row: StoredRow | undefined): SiteSettings {
    return {
      siteTitle: row?.siteTitle ?? config.siteName,
      tagline: row?.tagline ?? DEFAULT_TAGLINE,
      poetName: row?.poetName ?? null,
      poetBio: row?.poetBio ?? null,
      portraitUrl: row?.portraitUrl ?? null,
      links: row?.links ?? [],
      filterTagIds: row?.filterTagIds ?? null,
      homeThemeTagIds: row?.homeThemeTagIds ?? null,
      bookSlotTitles: ORIGINAL_SLOT_TITLES.map(
        (title, index) => row?.bookSlotTitles?.[index] ?? title,
      ),
      copyrightFrom: row?.copyrightFrom ?? null,
      holdWhispers: row?.holdWhispers ?? false,
      chapbookFace: row?.chapbookFace ?? DEFAULT_CHAPBOOK_FACE,
      stanzaNotesCarryReading: row?.stanzaNotesCarryReading ?? false,
      booksPage: booksPageWords(row?.booksPage),
      pinnedPoemId: row?.pinnedPoemId ?? null,
    };
  }

  /** Tag names by id, for the ids the settings choose. */
  async function readTagNames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(inArray(tags.id, ids));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async function readKept(): Promise<Kept> {
    const [row] = await db.select().from(siteSettings);
    const settings = settingsOf(row);
    const names = await readTagNames([
      ...(settings.filterTagIds ?? []),
      ...(settings.homeThemeTagIds ?? []),
    ]);
    // A chosen tag deleted since is left out; none left is the defaults again.
    const named = (ids: number[] | null, defaults: readonly string[]) => {
      const found = (ids ?? []).flatMap((id) => names.get(id) ?? []);
      return found.length > 0 ? found : [...defaults];
    };
    return {
      settings,
      filterTags: named(settings.filterTagIds, POETRY_PILLARS),
      homeThemes: named(settings.homeThemeTagIds, HOME_THEMES),
    };
  }

  const kept = () => memo.get(SETTINGS_KEY, readKept);

  /** The columns a PUT writes: only the fields it sent, each default stored as "not set". */
  function storedValues(input: SiteSettingsInput): StoredValues {
    const unlessDefault = (value: string | null | undefined, fallback: string) =>
      value === undefined ? undefined : !value || value === fallback ? null : value;
    const values: StoredValues = {
      siteTitle: unlessDefault(input.siteTitle, config.siteName),
      tagline: unlessDefault(input.tagline, DEFAULT_TAGLINE),
      poetName: input.poetName === undefined ? undefined : input.poetName || null,
      poetBio: input.poetBio === undefined ? undefined : input.poetBio || null,
      portraitUrl: input.portraitUrl === undefined ? undefined : input.portraitUrl || null,
      links: input.links,
      filterTagIds: input.filterTagIds,
      homeThemeTagIds: input.homeThemeTagIds,
      bookSlotTitles:
        input.bookSlotTitles === undefined
          ? undefined
          : input.bookSlotTitles.every((title, index) => title === ORIGINAL_SLOT_TITLES[index])
            ? null
            : input.bookSlotTitles.map((title, index) =>
                title === ORIGINAL_SLOT_TITLES[index] ? null : title,
              ),
      copyrightFrom: input.copyrightFrom,
      holdWhispers: input.holdWhispers,
      chapbookFace:
        input.chapbookFace === undefined
          ? undefined
          : input.chapbookFace === DEFAULT_CHAPBOOK_FACE
            ? null
            : input.chapbookFace,
      stanzaNotesCarryReading: input.stanzaNotesCarryReading,
      booksPage: input.booksPage === undefined ? undefined : storedBooksPage(input.booksPage),
      pinnedPoemId: input.pinnedPoemId,
    };
    return Object.fromEntries(
      Object.entries(values).filter(([, value]) => value !== undefined),
    ) as StoredValues;
  }

  /** Refuses the whole PUT, before anything is written, for a tag or a year the schema cannot check. */
  async function requireValid(input: SiteSettingsInput) {
    const errors: Record<string, string[]> = {};
    if (input.copyrightFrom != null && input.copyrightFrom > currentYear()) {
      errors.copyrightFrom = [FUTURE_YEAR_MESSAGE];
    }
    const chosen = { filterTagIds: input.filterTagIds, homeThemeTagIds: input.homeThemeTagIds };
    const names = await readTagNames(Object.values(chosen).flatMap((ids) => ids ?? []));
    for (const [field, ids] of Object.entries(chosen)) {
      if (ids?.some((id) => !names.has(id))) errors[field] = [UNKNOWN_TAG_MESSAGE];
    }
    // A pinned poem is one the poet has (a draft may be pinned ahead; home waits for it).
    if (input.pinnedPoemId != null) {
      const [poem] = await db
        .select({ id: poems.id })
        .from(poems)
        .where(and(eq(poems.id, input.pinnedPoemId), isLive(poems)));
      if (!poem) errors.pinnedPoemId = [PINNED_POEM_MESSAGE];
    }
    const [first] = Object.values(errors);
    if (first?.[0]) throw invalid(first[0], errors);
  }

  return {
    /** GET /api/admin/settings. */
    async get(_admin: AdminActor): Promise<SiteSettings> {
      return (await kept()).settings;
    },

    /** PUT /api/admin/settings: the fields sent, all or none; answers the whole object. */
    async update(_admin: AdminActor, input: SiteSettingsInput): Promise<SiteSettings> {
      await requireValid(input);
      const values = storedValues(input);
      if (Object.keys(values).length > 0) {
        await db
          .insert(siteSettings)
          .values({ id: 1, ...values })
          .onConflictDoUpdate({ target: siteSettings.id, set: values });
        memo.clear();
        await contentChanges.announce();
      }
      return (await kept()).settings;
    },

    /** The site's name and the poet's, from the same memo as every page (one function for all). */
    async identity(): Promise<SiteIdentity> {
      const { settings } = await kept();
      return { name: settings.siteTitle, poetName: settings.poetName };
    },

    /** What every page shows of the settings. */
    async view(): Promise<SiteView> {
      const { settings, filterTags, homeThemes } = await kept();
      return {
        siteTitle: settings.siteTitle,
        tagline: settings.tagline,
        poetName: settings.poetName,
        poetBio: settings.poetBio,
        portraitUrl: settings.portraitUrl,
        links: settings.links,
        filterTags,
        homeThemes,
        bookSlotTitles: settings.bookSlotTitles,
        booksPage: settings.booksPage,
        pinnedPoemId: settings.pinnedPoemId,
        copyright: copyrightLine(settings, currentYear()),
        chapbookFace: settings.chapbookFace,
        stanzaNotesCarryReading: settings.stanzaNotesCarryReading,
      };
    },
  };
}

export type SiteSettingsService = ReturnType<typeof createSiteSettingsService>;
