import { Parser } from "htmlparser2";
import { WHISPER_MAX_LENGTH } from "../../common/constants.ts";
import { normaliseDisplayName } from "../../common/display-name.ts";
import { isWithinVisibleLength } from "../../common/text.ts";

/**
 * What a fediverse reply's HTML becomes as a whisper: plain text with line breaks, never markup
 * (docs/decisions/046-fediverse-voices.md). The HTML is read, never rendered: `<br>` and the end
 * of a paragraph become line breaks, entities are decoded, every tag goes and the text of scripts
 * and styles with it, so what a reader is shown is only ever text, escaped where it is shown.
 */

/** Elements whose text is no part of what the author wrote. */
const DROPPED = new Set(["script", "style", "template", "noscript", "head", "title"]);
/** Elements that end a line when they close. */
const BLOCKS = new Set([
  "div",
  "li",
  "blockquote",
  "pre",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "tr",
]);

function hostOf(href: string | undefined): string | null {
  if (!href) return null;
  try {
    return new URL(href).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The reply's text. Mastodon opens a reply with a link mentioning whom it answers
 * ("@poet@site"): a leading mention of an account on this site, the one actor it has, is the
 * address of the reply, not its words, and is left out.
 */
export function replyText(html: string, siteHost: string): string {
  const host = siteHost.toLowerCase();
  let text = "";
  /** No word written yet: a mention of this site here is the reply's address. */
  let atStart = true;
  let dropped = 0;
  let skippedMention = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (DROPPED.has(name)) dropped += 1;
        else if (skippedMention > 0 && name === "a") skippedMention += 1;
        else if (name === "a" && atStart && hostOf(attributes.href) === host) skippedMention = 1;
        else if (name === "br") text += "\n";
      },
      ontext(data) {
        if (dropped > 0 || skippedMention > 0) return;
        const words = data.replace(/[ \t\n\r\f]+/g, " ");
        if (words.trim() !== "") atStart = false;
        text += words;
      },
      onclosetag(name, isImplied) {
        if (DROPPED.has(name)) dropped = Math.max(0, dropped - 1);
        else if (skippedMention > 0 && name === "a") skippedMention -= 1;
        else if (name === "p") text += "\n\n";
        else if (BLOCKS.has(name) && !isImplied) text += "\n";
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const plain = text
    // Control characters other than the line break cannot be shown (NUL cannot even be stored),
    // and bidirectional ones could reorder what is shown after the whisper.
    .replace(/(?!\n)[\p{Cc}\p{Bidi_Control}]/gu, "")
    // Lone surrogates have no UTF-8 form for the database to keep.
    .replace(/\p{Surrogate}/gu, "")
    .split("\n")
    .map((line) => line.trim().replace(/ {2,}/g, " "))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return withoutLeadingMention(plain, host);
}

/** The same mention written as text, as servers that send no link do. */
function withoutLeadingMention(text: string, host: string): string {
  const match = /^@[^\s@]+@([^\s@]+)\s*/u.exec(text);
  if (!match || match[1]?.toLowerCase() !== host) return text;
  return text.slice(match[0].length);
}

let graphemes: Intl.Segmenter | undefined;

/**
 * A reply as readers are shown it: whole up to the whisper's 280 characters, else cut to fit
 * with an ellipsis (the original post is one link away).
 */
export function shownReplyText(text: string): { text: string; isCut: boolean } {
  if (isWithinVisibleLength(text, WHISPER_MAX_LENGTH)) return { text, isCut: false };
  graphemes ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  let kept = "";
  let count = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (count === WHISPER_MAX_LENGTH - 1) break;
    kept += segment;
    count += 1;
  }
  return { text: `${kept.trimEnd()}…`, isCut: true };
}

/**
 * Plain text of at most `max` characters from a remote actor's own field (a name, a handle), as
 * a reader's display name is kept.
 */
export function remoteLabel(value: string | null, max: number): string | null {
  if (value === null) return null;
  const plain = normaliseDisplayName(value.replace(/\p{Surrogate}/gu, ""));
  if (plain === "") return null;
  return [...plain].slice(0, max).join("");
}

/** A remote address readers may be linked to: http(s) only, never `javascript:` or `data:`. */
export function remoteLink(value: string | null): string | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
