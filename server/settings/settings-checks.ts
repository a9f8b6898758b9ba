import { and, eq } from "drizzle-orm";
import {
  FUTURE_YEAR_MESSAGE,
  PINNED_POEM_MESSAGE,
  type SiteSettingsInput,
  UNKNOWN_TAG_MESSAGE,
} from "../../common/schemas/settings.ts";
import type { ServiceDeps } from "../core/deps.ts";
import { invalid } from "../core/errors.ts";
import { poems } from "../db/schema.ts";
import { isLive } from "../db/visibility.ts";
import { readTagNames } from "./stored-settings.ts";

/** Refuses the whole PUT, before anything is written, for a tag or a year the schema cannot check. */
export async function requireValid(
  { db }: Pick<ServiceDeps, "db">,
  input: SiteSettingsInput,
  currentYear: () => number,
) {
  const errors: Record<string, string[]> = {};
  if (input.copyrightFrom != null && input.copyrightFrom > currentYear()) {
    errors.copyrightFrom = [FUTURE_YEAR_MESSAGE];
  }
  const chosen = { filterTagIds: input.filterTagIds, homeThemeTagIds: input.homeThemeTagIds };
  const names = await readTagNames(
    db,
    Object.values(chosen).flatMap((ids) => ids ?? []),
  );
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
