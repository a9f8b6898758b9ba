import { redirectKey, SITE_PATH_SEGMENTS } from "../../common/site-pages.ts";

/** Why an old address is never redirected, or null when it may be. */
export function whyNotRedirectable(path: string): string | null {
  if (redirectKey(path) !== undefined) return null;
  const first = decodeURIComponent(path.split(/[/?#]/)[1] ?? "").toLowerCase();
  if (SITE_PATH_SEGMENTS.has(first)) {
    return `It is one of this site's own addresses (/${first}/): this site's page answers there`;
  }
  if (/^\/?(\?|$)/.test(path)) return "It is the old site's home page, which is this site's";
  return "It is not an address on the old site";
}
