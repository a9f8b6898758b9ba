import { Article, Audio, Hashtag, Image, Note, PUBLIC_COLLECTION } from "@fedify/vocab";
import { Temporal as Polyfill } from "@js-temporal/polyfill";
import * as paths from "../../common/paths.ts";
import type { Poem } from "../../common/schemas/poems.ts";
import { tagSlug } from "../../common/slug.ts";
import { escapeMarkup } from "../escape.ts";
import { poemObjectUrl, stanzaObjectUrl } from "./object-urls.ts";
import { poemSummary, stanzaHtml, verseLines } from "./verse.ts";

/**
 * What a poem and its stanzas are to other servers (docs/product/fediverse.md): a poem is an
 * `Article` at its page, a stanza a `Note` at its share address that answers the poem. The same
 * builders answer content negotiation and make the activities sent to followers, so what a
 * follower's server was sent is what it finds when it looks the poem up again.
 */

/** Who the objects are from and to whom they go: the site's actor and its followers. */
export interface ObjectAddressing {
  publicUrl: URL;
  actorUrl: URL;
  followersUrl: URL;
}

export type FederatedPoem = Pick<
  Poem,
  "slug" | "title" | "stanzas" | "coverUrl" | "coverAlt" | "publishAt" | "updatedAt" | "tags"
>;

/**
 * An instant as Fedify's types name it (the standard Temporal's), made with the polyfill Fedify
 * itself runs on, as Node has no Temporal yet.
 */
export const instant = (date: Date): Temporal.Instant =>
  Polyfill.Instant.fromEpochMilliseconds(date.getTime()) as unknown as Temporal.Instant;

/**
 * The whole poem, for servers that render an Article's content (docs/product/fediverse.md): one
 * paragraph per stanza with its line breaks, each ending in a pilcrow that links to the stanza's
 * own address, where a reader can answer that stanza alone.
 */
export function poemContentHtml(publicUrl: URL, poem: Pick<Poem, "slug" | "stanzas">): string {
  return poem.stanzas
    .map((stanza, index) => {
      const href = escapeMarkup(stanzaObjectUrl(publicUrl, poem.slug, index).href);
      return `<p>${stanzaHtml(stanza)} <a href="${href}">¶</a></p>`;
    })
    .join("");
}

const IMAGE_TYPES: Record<string, string> = {
  avif: "image/avif",
  gif: "image/gif",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/**
 * The picture a timeline shows with the poem, as an attachment (Mastodon takes media from
 * `attachment` only): the cover with its alt text, or else the opening stanza's card, described
 * by its words.
 */
function poemPicture(publicUrl: URL, poem: FederatedPoem): Image | null {
  if (poem.coverUrl) {
    const url = new URL(poem.coverUrl, publicUrl);
    const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase() ?? "";
    return new Image({
      url,
      mediaType: IMAGE_TYPES[extension] ?? null,
      name: poem.coverAlt || null,
    });
  }
  const [opening] = poem.stanzas;
  if (opening === undefined) return null;
  return new Image({
    url: new URL(paths.stanzaCard(poem.slug, 0), publicUrl),
    mediaType: "image/png",
    name: verseLines(opening)
      .map((line) => line.trim())
      .join("\n"),
  });
}

/**
 * A poem as an Article: its title as `name`, the verse a timeline shows as `summary` (decision
 * 064: Mastodon composes an Article's status from name, summary and url, never its content), the
 * whole poem as `content`, the cover (or stanza card) both as `image` and as an attachment.
 */
export function poemArticle(addressing: ObjectAddressing, poem: FederatedPoem): Article {
  const id = poemObjectUrl(addressing.publicUrl, poem.slug);
  const picture = poemPicture(addressing.publicUrl, poem);
  return new Article({
    id,
    url: id,
    attribution: addressing.actorUrl,
    name: poem.title,
    summary: poemSummary(poem.stanzas),
    content: poemContentHtml(addressing.publicUrl, poem),
    mediaType: "text/html",
    image: picture,
    attachments: picture ? [picture] : [],
    tags: poem.tags.map(
      (tag) =>
        new Hashtag({
          href: new URL(paths.theme(tagSlug(tag.name)), addressing.publicUrl),
          name: `#${tag.name.replace(/\s+/g, "")}`,
        }),
    ),
    to: PUBLIC_COLLECTION,
    cc: addressing.followersUrl,
    published: instant(poem.publishAt),
    updated: poem.updatedAt > poem.publishAt ? instant(poem.updatedAt) : null,
  });
}

/** A stanza's part of the poet's reading, as its Note carries it. */
export interface StanzaReading {
  /** The reading's own address with a media fragment, `#t=start,end` (a range, never a copy). */
  url: URL;
  /** The recording's type, when known: Mastodon shows an attachment by it. */
  mediaType: string | null;
  start: number;
  end: number;
}

/**
 * A stanza on its own: its text, answering the poem, in the poem's conversation; with its part
 * of the reading as an `Audio` attachment when the poet allows it (decision 073). Mastodon takes
 * media from `attachment` only, by `mediaType`, and describes it with `name`.
 */
export function stanzaNote(
  addressing: ObjectAddressing,
  poem: FederatedPoem,
  index: number,
  reading: StanzaReading | null = null,
): Note {
  const id = stanzaObjectUrl(addressing.publicUrl, poem.slug, index);
  const poemUrl = poemObjectUrl(addressing.publicUrl, poem.slug);
  return new Note({
    id,
    url: id,
    attribution: addressing.actorUrl,
    content: `<p>${stanzaHtml(poem.stanzas[index] ?? "")}</p>`,
    mediaType: "text/html",
    replyTarget: poemUrl,
    contexts: [poemUrl],
    attachments: reading
      ? [
          new Audio({
            url: reading.url,
            mediaType: reading.mediaType,
            name: `Stanza ${index + 1} of “${poem.title}”, read by the poet`,
            duration: Polyfill.Duration.from({
              milliseconds: Math.round((reading.end - reading.start) * 1000),
            }).round({ largestUnit: "seconds" }) as unknown as Temporal.Duration,
          }),
        ]
      : [],
    to: PUBLIC_COLLECTION,
    cc: addressing.followersUrl,
    published: instant(poem.publishAt),
  });
}
