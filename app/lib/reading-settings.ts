/**
 * The reader's reading settings (decision 021): a text size and a theme, kept in this browser only.
 * They live on <html> as data-reading-size and data-theme, which app.css turns into the reading
 * text's scale and the site's colours.
 */
export const READING_STORAGE_KEY = "emberReading";
export const READING_SIZES = ["default", "larger", "largest"] as const;
export const READING_THEMES = ["light", "dark", "sepia"] as const;
export type ReadingSize = (typeof READING_SIZES)[number];
export type ReadingTheme = (typeof READING_THEMES)[number];

/** What is kept: a theme only once the reader picked one; until then prefers-color-scheme decides. */
interface SavedReadingSettings {
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

/** The settings in effect: the saved ones the root's script applied, else the defaults. */
export function currentReadingSettings(): { size: ReadingSize; theme: ReadingTheme } {
  const { readingSize, theme } = document.documentElement.dataset;
  const systemTheme = window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  return {
    size: READING_SIZES.find((size) => size === readingSize) ?? "default",
    theme: READING_THEMES.find((known) => known === theme) ?? systemTheme,
  };
}

/** Applies the reader's choice at once and keeps it for every later page. */
export function chooseReadingSetting(choice: { size: ReadingSize } | { theme: ReadingTheme }) {
  const root = document.documentElement;
  if ("size" in choice) root.dataset.readingSize = choice.size;
  else root.dataset.theme = choice.theme;
  const { size, theme } = currentReadingSettings();
  const saved: SavedReadingSettings = root.dataset.theme ? { size, theme } : { size };
  try {
    localStorage.setItem(READING_STORAGE_KEY, JSON.stringify(saved));
  } catch {
    // Storage blocked or full: the choice still holds on this page.
  }
}
