import { ImportFileError } from "./types.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A file's bytes as text: UTF-8 (a byte-order mark dropped), refused when it is not text at all
 * (a picture, a PDF, a zip given where a text export belongs).
 */
export function decodeText(bytes: Uint8Array, file: string): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ImportFileError(`${file} is not a text file (it is not UTF-8)`, file);
  }
  if (text.includes("\u0000")) {
    throw new ImportFileError(`${file} is not a text file (it holds binary data)`, file);
  }
  return text;
}

/**
 * A "<" that could open a tag once entities are decoded ("&lt;script&gt;" in a poem about code).
 */
const TAG_LIKE = /<(?=[a-zA-Z/!?])/g;

/**
 * Imported text as kept: no NUL and no lone surrogate halves, which the database cannot hold
 * (common/text.ts), and no "<" that could open a tag (it becomes "‹"), so no imported title, line
 * or name can ever be read as markup, however a page or an email later shows it (decision 051).
 */
export function storable(text: string): string {
  return text
    .replace(/\p{Surrogate}/gu, "\ufffd")
    .replaceAll("\u0000", "")
    .replace(TAG_LIKE, "\u2039");
}

/** One line of plain text: runs of whitespace as one space, trimmed. */
export function oneLine(text: string): string {
  return storable(text).replace(/\s+/g, " ").trim();
}

/** The 1-based line of a character offset in a text. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let index = 0; index < end; index += 1) if (text.charCodeAt(index) === 10) line += 1;
  return line;
}

/** A zone written at a date's end: "Z", "+0100", "+01:00", Ghost 0.x's "+000", "GMT", "EST". */
const WRITTEN_ZONE =
  /(?:\d{2}(?::\d{2}){1,2}(?:\.\d+)?\s*(?:Z|[+-]\d{2}:?\d{2}|[+-]\d{3})|\b(?:UT|UTC|GMT|[ECMP][SD]T)(?:[+-]\d{1,4})?)\s*(?:\([^)]*\))?$/i;

const validDate = (date: Date): Date | null => (Number.isNaN(date.getTime()) ? null : date);

/**
 * A date as the platforms wrote it (docs/product/import.md): an ISO string
 * ("2024-03-07T19:08:42.354Z"), WordPress's and Ghost's "2024-03-07 19:08:42", the millisecond
 * number Ghost 0.x stored (1388318310783, also as a string), or the other forms Ghost 0.x let
 * through ("25 Nov 2016 04:20:00 +000"); else null. WordPress's "0000-00-00 00:00:00" is no date.
 * With `assumeUtc` (the platforms' own fields), a date written without a zone is UTC, whatever
 * the server's zone.
 */
export function parseDate(value: unknown, assumeUtc = false): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === "number") return fromMilliseconds(value);
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "" || text.startsWith("0000-00-00")) return null;
  if (/^\d{10,14}$/.test(text)) return fromMilliseconds(Number(text));
  // "YYYY-MM-DD HH:MM:SS" without a zone: WordPress's _gmt fields and Ghost's exports are UTC.
  if (assumeUtc && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) {
    return validDate(new Date(`${text.replace(" ", "T")}Z`));
  }
  const date = validDate(new Date(text));
  // JavaScript reads any other form without a zone ("25 Nov 2016 04:20:00") in the server's own
  // zone, but an ISO day alone ("2016-11-25") in UTC: the first is moved back to UTC.
  const readAsLocal =
    assumeUtc && date !== null && !WRITTEN_ZONE.test(text) && !/^\d{4}-\d{2}-\d{2}$/.test(text);
  return readAsLocal ? new Date(date.getTime() - date.getTimezoneOffset() * 60_000) : date;
}

function fromMilliseconds(value: number): Date | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date field's value as a poet reads it in a note: "“31/02/2019”". */
export function quotedValue(value: unknown): string {
  const text = typeof value === "string" || typeof value === "number" ? String(value) : "";
  return `“${oneLine(text).slice(0, 40)}”`;
}
