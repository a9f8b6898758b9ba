import { COPYRIGHT_YEAR } from "./constants.ts";

/** Home's line under the title until the poet writes their own. */
export const DEFAULT_TAGLINE = "Poems to read slowly, one stanza at a time.";

/**
 * The footer's copyright line. Until the poet gives the first year it is the original '© 2025';
 * then it runs from that year to the current one ('© 2019–2026'), one year while they are the same,
 * in the poet's name, or the site's without one.
 */
export function copyrightLine(
  settings: { copyrightFrom: number | null; poetName: string | null; siteTitle: string },
  currentYear: number,
): string {
  if (settings.copyrightFrom === null) {
    return `© ${COPYRIGHT_YEAR} ${settings.siteTitle}. All rights reserved.`;
  }
  const years =
    settings.copyrightFrom >= currentYear
      ? String(settings.copyrightFrom)
      : `${settings.copyrightFrom}–${currentYear}`;
  return `© ${years} ${settings.poetName ?? settings.siteTitle}. All rights reserved.`;
}
