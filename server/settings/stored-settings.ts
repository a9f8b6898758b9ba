import { inArray } from "drizzle-orm";
import { BOOK_SLOTS, booksPageWords, storedBooksPage } from "../../common/book-slots.ts";
import { HOME_THEMES, POETRY_PILLARS } from "../../common/constants.ts";
import { DEFAULT_CHAPBOOK_FACE } from "../../common/schemas/chapbook-faces.ts";
import type { SiteSettings, SiteSettingsInput } from "../../common/schemas/settings.ts";
import { DEFAULT_TAGLINE } from "../../common/site-settings.ts";
import type { ServiceDeps } from "../core/deps.ts";
import type { Database } from "../db/client.ts";
import { siteSettings, tags } from "../db/schema.ts";

/*
 * The settings' one row and what it means (docs/decisions/039-site-settings.md): a value equal to
 * its default is stored as "not set", and "not set" is read back as the default.
 */

/** The settings as read once for every page until a change clears them (site-settings.ts). */
export interface Kept {
  settings: SiteSettings;
  filterTags: string[];
  homeThemes: string[];
}

type StoredRow = typeof siteSettings.$inferSelect;
type StoredValues = Partial<Omit<typeof siteSettings.$inferInsert, "id" | "updatedAt">>;

const ORIGINAL_SLOT_TITLES = BOOK_SLOTS.map((slot) => slot.title);

function settingsOf(config: ServiceDeps["config"], row: StoredRow | undefined): SiteSettings {
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
export async function readTagNames(db: Database, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(inArray(tags.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The row, with the tags it chooses named. */
export async function readKept({ db, config }: Pick<ServiceDeps, "db" | "config">): Promise<Kept> {
  const [row] = await db.select().from(siteSettings);
  const settings = settingsOf(config, row);
  const names = await readTagNames(db, [
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

/** The columns a PUT writes: only the fields it sent, each default stored as "not set". */
export function storedValues(
  config: ServiceDeps["config"],
  input: SiteSettingsInput,
): StoredValues {
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
