/** A theme's slug: its tag name lowercased, spaces as hyphens (docs/product/reading.md). */
export function tagSlug(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, "-");
}

/**
 * The admin form's slug auto-fill for a new poem (docs/product/admin.md, Poems): lowercase, drop
 * characters other than letters, digits, spaces and hyphens, spaces to hyphens, collapse repeated
 * hyphens.
 */
export function slugFromTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/-+/g, "-");
}

export const SLUG_PATTERN = /^[a-z0-9-]+$/;
