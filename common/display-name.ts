/**
 * A reader's display name, as they type it on /account and as whispers show it. It is plain text:
 * markup stays the characters it is, and React escapes it wherever it is shown. Bidirectional
 * controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are removed, since a name that
 * carries them could reorder the text shown after it ("Rowan A." beside a whisper); the name is
 * also shown isolated (`<bdi>`), so a right-to-left name still reads as written.
 */
export function normaliseDisplayName(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\p{Bidi_Control}/gu, "")
    .replace(/[\p{Cc}\s]+/gu, " ")
    .trim();
}

/**
 * How a display name is stored: its first word is the first name, the rest the last name, so a
 * whisper shows "Rowan A." for "Rowan Ash" and "Rowan" for "Rowan".
 */
export function splitDisplayName(name: string | null): {
  firstName: string | null;
  lastName: string | null;
} {
  if (!name) return { firstName: null, lastName: null };
  const space = name.indexOf(" ");
  if (space < 0) return { firstName: name, lastName: null };
  return { firstName: name.slice(0, space), lastName: name.slice(space + 1) };
}

/** The stored name read back as one: null when the reader has given none. */
export function joinDisplayName(firstName: string | null, lastName: string | null): string | null {
  return [firstName, lastName].filter(Boolean).join(" ") || null;
}

/**
 * The last name as a whisper shows it to everyone: its first character and a dot ("Ash Thorne"
 * is "A."), and none without a first name ('Anonymous'). Public answers carry only this, so
 * they say exactly what the page shows (docs/product/interactions.md, Whispers).
 */
export function shownLastName(firstName: string | null, lastName: string | null): string | null {
  // The first character as the reader sees it, not half of a surrogate pair.
  const initial = lastName ? Array.from(lastName)[0] : undefined;
  return firstName && initial ? `${initial}.` : null;
}
