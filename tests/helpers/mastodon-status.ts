/**
 * What a Mastodon server makes of a delivered `Create`, ported line by line from Mastodon's Ruby
 * so tests can read a poem as a follower's home timeline shows it
 * (docs/decisions/064-what-a-timeline-shows-of-a-poem.md). Sources, as read:
 *
 * - `app/lib/activitypub/activity/create.rb` (mastodon/mastodon 4.x): `process_status_params`
 *   takes `text: converted_object_type? ? converted_text : …` and `spoiler_text: ''` for a
 *   converted type; `converted_text` is `linkify([title.presence, spoiler_text.presence,
 *   url || uri].compact.join("\n\n"))`; `process_attachments` reads `attachment` only, through
 *   `app/lib/activitypub/parser/media_attachment_parser.rb`.
 * - `app/lib/activitypub/parser/status_parser.rb`: `title` (name), `spoiler_text` (summary),
 *   `url` (`url_to_href(url, 'text/html')`), `uri` (id); on Mastodon's main branch the same
 *   parser's `processed_text` joins `"<h2>#{title}</h2>"`, the summary as it is and
 *   `linkify(url || uri)` instead.
 * - `app/lib/text_formatter.rb`: `to_s` escapes the text around its entities, links URLs with
 *   `shortened_link`, then (multiline by default) `simple_format(html, {}, sanitize: false)
 *   .delete("\n")`, Rails' `simple_format` making paragraphs of blank-line-separated blocks and
 *   `<br />` of single line breaks.
 * - `ActivityPub::Activity::CONVERTED_TYPES` (Image Audio Video Article Page Event) and
 *   `MediaAttachment::Types`' image, video and audio types (`supported_mime_types`).
 *
 * Entities other than URLs (hashtags, mentions) are not ported: tests keep `#` and `@` out of the
 * verse they compose.
 */

type Json = Record<string, unknown>;

const CONVERTED_TYPES = ["Image", "Audio", "Video", "Article", "Page", "Event"];
const IMAGE_MIME_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/heic",
  "image/heif",
  "image/webp",
  "image/avif",
];
const VIDEO_MIME_TYPES = ["video/mp4", "video/ogg", "video/quicktime", "video/webm"];
const AUDIO_MIME_TYPES = [
  "audio/3gpp",
  "audio/aac",
  "audio/flac",
  "audio/m4a",
  "audio/mp3",
  "audio/mp4",
  "audio/mpeg",
  "audio/ogg",
  "audio/vnd.wave",
  "audio/vorbis",
  "audio/wav",
  "audio/wave",
  "audio/webm",
  "audio/x-m4a",
  "audio/x-pn-wave",
  "audio/x-wav",
  "video/x-ms-asf",
];
const SUPPORTED_MIME_TYPES = [...IMAGE_MIME_TYPES, ...VIDEO_MIME_TYPES, ...AUDIO_MIME_TYPES];

// JsonLdHelper
const asArray = (value: unknown): unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
const equalsOrIncludesAny = (haystack: unknown, needles: string[]) =>
  needles.some((needle) =>
    Array.isArray(haystack) ? haystack.includes(needle) : haystack === needle,
  );
function urlToHref(value: unknown, preferredType?: string): string | null {
  let single: unknown = value;
  if (Array.isArray(value) && typeof value[0] !== "string") {
    single = value.find(
      (link: Json) =>
        preferredType === undefined || ((link.mimeType as string) || "text/html") === preferredType,
    );
  } else if (Array.isArray(value)) single = value[0];
  if (single === undefined || single === null) return null;
  return typeof single === "string" ? single : ((single as Json).href as string);
}
/** Ruby's `presence`: nil for nil, an empty or whitespace-only string. */
const presence = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value : null;

/** ERB::Util.html_escape. */
const h = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

/** TextFormatter.shortened_link. */
function shortenedLink(url: string): string {
  const prefix = /^(https?:\/\/(www\.)?|xmpp:)/.exec(url)?.[0] ?? "";
  let display = url.slice(prefix.length, prefix.length + 30);
  let suffix: string | null = url.slice(prefix.length + 30);
  let cutoff = url.slice(prefix.length).length > 30;
  if (suffix.length === 1) {
    display += suffix;
    suffix = null;
    cutoff = false;
  }
  return `<a href="${h(url)}" target="_blank" rel="nofollow noopener noreferrer" translate="no"><span class="invisible">${h(prefix)}</span><span class="${cutoff ? "ellipsis" : ""}">${h(display)}</span><span class="invisible">${h(suffix ?? "")}</span></a>`;
}

/** Rails' simple_format(text, {}, sanitize: false). */
function simpleFormat(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\n+/)
    .map((paragraph) => paragraph.replace(/([^\n]\n)(?=[^\n])/g, "$1<br />"));
  return paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join("\n\n");
}

/** TextFormatter#to_s (multiline), with URL entities. */
export function linkify(text: string): string {
  if (text.trim() === "") return "";
  let html = "";
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    html += h(text.slice(last, match.index)) + shortenedLink(match[0]);
    last = match.index + match[0].length;
  }
  html += h(text.slice(last));
  return simpleFormat(html).replaceAll("\n", "");
}

export interface MastodonStatus {
  text: string;
  spoilerText: string;
  url: string | null;
  mediaAttachments: Array<{ remoteUrl: string; description: string | null; downloaded: boolean }>;
}

/**
 * The status Mastodon 4.x stores for a delivered Create: `processedText` chooses the main
 * branch's `processed_text` over 4.x's `converted_text`.
 */
export function mastodonStatus(
  create: Json,
  { processedText = false }: { processedText?: boolean } = {},
): MastodonStatus {
  const object = create.object as Json;
  const title = presence(object.name);
  const spoilerText = presence(object.summary);
  const uri = object.id as string;
  const url = object.url ? urlToHref(object.url, "text/html") : null;
  const converted = equalsOrIncludesAny(object.type, CONVERTED_TYPES);
  let text: string;
  if (!converted) text = (object.content as string) ?? "";
  else if (processedText) {
    text = [title && `<h2>${title}</h2>`, spoilerText, linkify(url ?? uri)]
      .filter((part) => part !== null)
      .join("\n\n");
  } else {
    text = linkify([title, spoilerText, url ?? uri].filter((part) => part !== null).join("\n\n"));
  }
  const mediaAttachments = asArray(object.attachment).flatMap((value) => {
    const attachment = value as Json;
    const remoteUrl = urlToHref(attachment.url);
    if (!remoteUrl) return [];
    const contentType = attachment.mediaType as string | undefined;
    return [
      {
        remoteUrl,
        description: presence(attachment.summary) ?? presence(attachment.name),
        // unsupported_media_type?: a named type Mastodon cannot show is kept as a link only.
        downloaded: contentType === undefined || SUPPORTED_MIME_TYPES.includes(contentType),
      },
    ];
  });
  return {
    text,
    spoilerText: converted ? "" : (spoilerText ?? ""),
    url,
    mediaAttachments: mediaAttachments.slice(0, 4),
  };
}

/** The status's paragraphs as a reader sees them: each a list of lines, tags gone, entities read. */
export function readParagraphs(html: string): string[][] {
  const decode = (text: string) =>
    text
      .replace(/<[^>]+>/g, "")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&");
  return [...html.matchAll(/<p>(.*?)<\/p>/g)].map((match) =>
    (match[1] ?? "").split("<br />").map(decode),
  );
}
