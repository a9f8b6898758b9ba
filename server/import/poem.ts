import { TAG_NAME_MAX_LENGTH } from "../../common/constants.ts";
import { slugFromTitle } from "../../common/slug.ts";
import { stanzaLines } from "../../common/stanza.ts";
import {
  COVER_ALT_MAX_LENGTH,
  COVER_URL_MAX_LENGTH,
  POEM_MAX_STANZAS,
  POEM_TITLE_MAX_LENGTH,
  SLUG_MAX_LENGTH,
  STANZA_MAX_LENGTH,
} from "./limits.ts";
import { oneLine, storable } from "./text.ts";
import type { ImportedPoem, ParsedImport } from "./types.ts";

/** The most tags a poem carries (the admin form's limit). */
const POEM_MAX_TAGS = 50;

export type PoemDraft = Omit<ImportedPoem, "title" | "site" | "legacyId" | "audioUrl" | "chosen"> &
  Partial<Pick<ImportedPoem, "site" | "legacyId" | "audioUrl" | "chosen">> & {
    title: string | null;
    /** Why its text could not be read at all (reduceHtml's `unreadable`): it is skipped for it. */
    unreadable?: string | null;
  };

/** A date as the preview's notes show it: "5 March 2024" (UTC, as the export gives it). */
export function noteDate(date: Date): string {
  return date.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** A source's slug in this site's form (lowercase letters, digits, hyphens), or null. */
export function normaliseSlug(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // A slug with a stray "%" is used as it is.
  }
  const slug = slugFromTitle(text.normalize("NFKD").replace(/\p{M}/gu, ""))
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, "");
  return slug === "" ? null : slug;
}

/** An http(s) address a cover can be fetched from; protocol-relative ones read as https. */
function coverAddress(raw: string | null, notes: string[]): string | null {
  if (!raw) return null;
  const text = raw.trim().startsWith("//") ? `https:${raw.trim()}` : raw.trim();
  if (text === "") return null;
  try {
    const url = new URL(text);
    if (
      (url.protocol === "http:" || url.protocol === "https:") &&
      text.length <= COVER_URL_MAX_LENGTH
    ) {
      return url.href;
    }
  } catch {
    // Not an address: noted below.
  }
  notes.push(`Left out the cover image: “${oneLine(text).slice(0, 80)}” is not a web address`);
  return null;
}

/**
 * Holds a poem to the admin form's limits (decision 051) and adds it to the result, or lists it as
 * skipped: with no text, over 500 stanzas or with a stanza over 10,000 characters it is skipped
 * (cutting would lose lines unseen); a long title or cover description is cut, with a note.
 */
export function addPoem(draft: PoemDraft, into: ParsedImport, now?: Date): void {
  const notes = [...draft.notes];
  const stanzas = draft.stanzas
    .map((stanza) => storable(stanza).trimEnd())
    .filter((stanza) => stanza.trim() !== "");
  let title = oneLine(draft.title ?? "");
  const named = title !== "" ? title : oneLine(stanzaLines(stanzas[0] ?? "")[0] ?? "");
  const long = stanzas.findIndex((stanza) => stanza.length > STANZA_MAX_LENGTH);
  const overLimit = draft.unreadable
    ? draft.unreadable
    : stanzas.length === 0
      ? "It has no text"
      : stanzas.length > POEM_MAX_STANZAS
        ? `It has ${stanzas.length} stanzas; a poem holds at most ${POEM_MAX_STANZAS}`
        : long >= 0
          ? `Its stanza ${long + 1} is over ${STANZA_MAX_LENGTH} characters, the most a stanza holds`
          : null;
  if (overLimit !== null) {
    into.skipped.push({
      // The id the poet would know it by: the post's number where the platform gave one.
      sourceId: draft.legacyId ?? draft.sourceId,
      title: named || draft.sourceId,
      reason: overLimit,
    });
    return;
  }
  if (title === "") {
    title = named;
    notes.push("It had no title: its first line is the title");
  }
  if (title.length > POEM_TITLE_MAX_LENGTH) {
    title = title.slice(0, POEM_TITLE_MAX_LENGTH).trimEnd();
    notes.push(`The title was cut to ${POEM_TITLE_MAX_LENGTH} characters`);
  }
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const raw of draft.tags) {
    const tag = oneLine(raw);
    if (tag === "" || seen.has(tag.toLowerCase())) continue;
    if (tag.length > TAG_NAME_MAX_LENGTH) {
      notes.push(
        `Left out the tag “${tag.slice(0, 60)}…”: a tag is at most ${TAG_NAME_MAX_LENGTH} characters`,
      );
      continue;
    }
    if (tags.length === POEM_MAX_TAGS) {
      notes.push(`Kept the first ${POEM_MAX_TAGS} tags`);
      break;
    }
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  const coverUrl = coverAddress(draft.coverUrl, notes);
  let coverAlt = coverUrl ? oneLine(draft.coverAlt ?? "") || null : null;
  if (coverAlt && coverAlt.length > COVER_ALT_MAX_LENGTH) {
    coverAlt = coverAlt.slice(0, COVER_ALT_MAX_LENGTH).trimEnd();
    notes.push(`The cover's description was cut to ${COVER_ALT_MAX_LENGTH} characters`);
  }
  let state = draft.state;
  if (state === "scheduled" && draft.publishAt === null) {
    state = "draft";
    notes.push("It was scheduled without a date: it comes in as a draft");
  }
  if (state === "scheduled" && draft.publishAt && now && draft.publishAt <= now) {
    // The platform would have published it at that date had it run: it is published then here.
    state = "published";
    notes.push(
      `It was scheduled for ${noteDate(draft.publishAt)}, which has passed: it comes in published at that date`,
    );
  }
  into.poems.push({
    site: draft.site ?? "",
    sourceId: draft.sourceId,
    legacyId: draft.legacyId ?? null,
    title,
    slug: normaliseSlug(draft.slug),
    stanzas,
    tags,
    state,
    publishAt: state === "draft" ? null : draft.publishAt,
    coverUrl,
    coverAlt,
    // A scheduled or draft poem had no address readers could have kept.
    oldPaths: state === "published" ? [...new Set(draft.oldPaths)] : [],
    audioUrl: draft.audioUrl ?? null,
    chosen: draft.chosen ?? true,
    notes,
  });
}
