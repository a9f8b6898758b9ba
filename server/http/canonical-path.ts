import { PAGE_SEGMENTS } from "../../common/site-pages.ts";

/**
 * One page, one path (docs/decisions/056-one-page-one-path.md): a page of this site answers at
 * one path only, with single slashes, no trailing slash, in lowercase (every slug in a page's
 * path is lowercase: docs/product/admin.md) and percent-encoded only where a browser encodes
 * it. Any other spelling of it (`/poetry/thaw/`, `//`, `/POETRY/thaw`, `/poetry/%74haw`) is a
 * 301 to that path, so a page is counted under one path and cached once.
 */

/** What a segment keeps as it is: RFC 3986's unreserved and sub-delims, ':' and '@'. */
const KEPT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;
/** A path already in its one spelling, without a character that asks for a closer look. */
const PLAIN = /^(?:\/[a-z0-9\-_~!$&'()*+,;=:@.]+)+$/;
const DOT_SEGMENT = /\/\.{1,2}(?:\/|$)/;

function encodeSegment(text: string): string {
  let encoded = "";
  for (const char of text) {
    if (KEPT.test(char)) {
      encoded += char;
      continue;
    }
    for (const byte of Buffer.from(char)) {
      encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return encoded;
}

/**
 * The page's one path when `path` (a request's, percent-encoded, without its query) spells a
 * page another way; undefined when it is that path already, or is not a page's (the API, files,
 * an imported poem's old address, an unknown path), or cannot be read.
 */
export function canonicalPagePath(path: string): string | undefined {
  if (path === "/" || (PLAIN.test(path) && !DOT_SEGMENT.test(path))) return undefined;
  const segments = path.split("/").filter(Boolean);
  if (segments.length === 0) return "/";
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment).toLowerCase());
  } catch {
    return undefined;
  }
  if (!PAGE_SEGMENTS.has(decoded[0] ?? "")) return undefined;
  if (decoded.some((segment) => segment.includes("/") || segment === "." || segment === "..")) {
    return undefined;
  }
  const canonical = `/${decoded.map(encodeSegment).join("/")}`;
  return canonical === path ? undefined : canonical;
}

/** Whether a page answered at `path` is counted there: only at its one path (page views). */
export function isCanonicalPath(path: string): boolean {
  if (DOT_SEGMENT.test(path)) return false;
  return path === "/" || PLAIN.test(path) || canonicalPagePath(path) === undefined;
}
