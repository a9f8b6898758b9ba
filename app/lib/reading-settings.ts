/**
 * The reader's reading settings (decision 021): a text size and a theme, kept in this browser only.
 * They live on <html> as data-reading-size and data-theme, which app.css turns into the reading
 * text's scale and the site's colours. Every page applies them before its first paint; reading
 * and changing them is the panel's (app/components/reading-settings-choices.tsx), which loads
 * when a reader first opens it.
 */
export const READING_STORAGE_KEY = "emberReading";
export const READING_SIZES = ["default", "larger", "largest"] as const;
export const READING_THEMES = ["light", "dark", "sepia"] as const;
export type ReadingSize = (typeof READING_SIZES)[number];
export type ReadingTheme = (typeof READING_THEMES)[number];

/** What is kept: a theme only once the reader picked one; until then prefers-color-scheme decides. */
export interface SavedReadingSettings {
  size: ReadingSize;
  theme?: ReadingTheme;
}

/**
 * Applies the saved settings before the first paint, so a saved theme never flashes and a saved
 * size never shifts the layout. It is part of the root's inline script (app/root.tsx), which runs
 * under the page's nonce and, on cached pages, its hash (decision 008). A value that is not JSON,
 * or names no known size or theme, leaves the defaults.
 */
export const APPLY_SAVED_READING_SETTINGS = `try {
  const saved = JSON.parse(localStorage.getItem(${JSON.stringify(READING_STORAGE_KEY)}));
  if (${JSON.stringify(READING_SIZES)}.includes(saved.size)) document.documentElement.dataset.readingSize = saved.size;
  if (${JSON.stringify(READING_THEMES)}.includes(saved.theme)) document.documentElement.dataset.theme = saved.theme;
} catch {}`;
