import type { BooksPageWords } from "../../common/book-slots.ts";
import { dayInZone } from "../../common/dates.ts";
import type { ChapbookFace } from "../../common/schemas/chapbook-faces.ts";
import type { SiteLink, SiteSettings, SiteSettingsInput } from "../../common/schemas/settings.ts";
import { copyrightLine } from "../../common/site-settings.ts";
import type { AdminActor } from "../core/actor.ts";
import type { ContentChanges } from "../core/content-changes.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { createMemo } from "../core/memo.ts";
import { siteSettings } from "../db/schema.ts";
import type { MailSite } from "../mail/html.ts";
import { requireValid } from "./settings-checks.ts";
import { type Kept, readKept, storedValues } from "./stored-settings.ts";

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

const SETTINGS_KEY = "settings";

/**
 * The poet's site settings (docs/decisions/039-site-settings.md): one row, read through a memo
 * that every content change clears, and announced like a content write, so every instance and its
 * page cache show a change at once. A value equal to its default is stored as "not set", so
 * the default (SITE_NAME, the original titles) keeps following the configuration and the code.
 */
export function createSiteSettingsService(deps: ServiceDeps & { contentChanges: ContentChanges }) {
  const { db, config, now, contentChanges } = deps;
  const memo = createMemo<Kept>({ maxEntries: 1 });
  contentChanges.onChange(() => memo.clear());

  const currentYear = () => Number(dayInZone(config.siteTimezone, now()).slice(0, 4));

  const kept = () => memo.get(SETTINGS_KEY, () => readKept(deps));

  return {
    /** GET /api/admin/settings. */
    async get(_admin: AdminActor): Promise<SiteSettings> {
      return (await kept()).settings;
    },

    /** PUT /api/admin/settings: the fields sent, all or none; answers the whole object. */
    async update(_admin: AdminActor, input: SiteSettingsInput): Promise<SiteSettings> {
      await requireValid(deps, input, currentYear);
      const values = storedValues(config, input);
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
