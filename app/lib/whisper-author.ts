import type { Whisper } from "../../common/schemas/interactions.ts";

/** 'Ada L.', or 'Ada', or 'Anonymous' (docs/product/interactions.md, Whispers). */
export function whisperAuthor({ firstName, lastName }: Whisper["user"]): string {
  // The first character as the reader sees it, not half of a surrogate pair.
  if (firstName && lastName) return `${firstName} ${Array.from(lastName)[0]}.`;
  return firstName || "Anonymous";
}
