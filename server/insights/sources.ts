import type { SourceGroup } from "../../common/schemas/insights.ts";

/**
 * Where a reader came from (docs/product/insights.md, Sources): the referrer's host only, or
 * `utm_source`, grouped. Nothing else of the referrer (its path, its query) is read or kept.
 */

/** Search engines by the name their hosts carry (google.com, google.co.uk, www.bing.com…). */
const SEARCH_ENGINES: Array<[name: string, pattern: RegExp]> = [
  ["google", /(^|\.)google\.[a-z.]+$/],
  ["bing", /(^|\.)bing\.com$/],
  ["duckduckgo", /(^|\.)duckduckgo\.com$/],
  ["yahoo", /(^|\.)search\.yahoo\.[a-z.]+$/],
  ["ecosia", /(^|\.)ecosia\.org$/],
  ["brave", /^search\.brave\.com$/],
  ["startpage", /(^|\.)startpage\.com$/],
  ["kagi", /(^|\.)kagi\.com$/],
  ["qwant", /(^|\.)qwant\.com$/],
  ["yandex", /(^|\.)yandex\.[a-z.]+$/],
  ["baidu", /(^|\.)baidu\.com$/],
];

/**
 * Fediverse servers and apps readers commonly arrive from. A fixed list: the servers of the
 * site's own followers join it at counting time (`followerHosts`, docs/decisions/049).
 */
export const FEDIVERSE_HOSTS = new Set([
  "mastodon.social",
  "mastodon.online",
  "mastodon.world",
  "mstdn.social",
  "mas.to",
  "fosstodon.org",
  "hachyderm.io",
  "infosec.exchange",
  "techhub.social",
  "universeodon.com",
  "mastodon.art",
  "writing.exchange",
  "mastodon.scot",
  "social.vivaldi.net",
  "kolektiva.social",
  "pixelfed.social",
  "misskey.io",
  "lemmy.world",
  "threads.net",
  "www.threads.net",
  "threads.com",
  "www.threads.com",
  "elk.zone",
  "phanpy.social",
]);

/** `utm_source` values the site's own mail carries, or that name mail. */
const EMAIL_SOURCES = new Set(["digest", "email", "newsletter", "mail"]);

export interface Source {
  group: SourceGroup;
  /** `search:google`, `fediverse:mastodon.social`, `email`, `site:example.com`, `direct`. */
  id: string;
}

/** A host or a utm_source as it may be kept: lower case, a host's characters, bounded. */
export function cleanName(value: string): string | undefined {
  const name = value
    .trim()
    .toLowerCase()
    .replace(/^www\./, "");
  return /^[a-z0-9][a-z0-9.-]{0,99}$/.test(name) ? name : undefined;
}

function sourceOfName(name: string, followerHosts: ReadonlySet<string>): Source {
  if (EMAIL_SOURCES.has(name)) return { group: "email", id: "email" };
  for (const [engine, pattern] of SEARCH_ENGINES) {
    if (pattern.test(name) || name === engine) return { group: "search", id: `search:${engine}` };
  }
  if (
    FEDIVERSE_HOSTS.has(name) ||
    FEDIVERSE_HOSTS.has(`www.${name}`) ||
    name === "mastodon" ||
    followerHosts.has(name)
  ) {
    return { group: "fediverse", id: `fediverse:${name}` };
  }
  return { group: "site", id: `site:${name}` };
}

/**
 * The source of a page view: `utm_source` first (the digest's links carry `digest`), then the
 * referrer's host; undefined when the referrer is this site (a reader moving between pages).
 * `followerHosts` are the servers of the site's fediverse followers, as `cleanName` gives them.
 */
export function sourceOf(
  referrer: string | undefined,
  utmSource: string | null,
  siteHost: string,
  followerHosts: ReadonlySet<string> = new Set(),
): Source | undefined {
  const utm = utmSource ? cleanName(utmSource) : undefined;
  if (utm) return sourceOfName(utm, followerHosts);
  if (!referrer) return { group: "direct", id: "direct" };
  let host: string;
  try {
    host = new URL(referrer).host.toLowerCase();
  } catch {
    return { group: "direct", id: "direct" };
  }
  if (host === siteHost) return undefined;
  const name = cleanName(host.replace(/:\d+$/, ""));
  return name ? sourceOfName(name, followerHosts) : { group: "direct", id: "direct" };
}

/** The group a kept source id belongs to. */
export function groupOf(id: string): SourceGroup {
  if (id === "email" || id === "direct") return id;
  const group = id.slice(0, id.indexOf(":"));
  return group === "search" || group === "fediverse" ? group : "site";
}

/**
 * Link-preview bots by user agent: the platform whose bot fetched a stanza's share card. Only
 * the platform's name is kept, never the user agent.
 */
const PREVIEW_PLATFORMS: Array<[platform: string, pattern: RegExp]> = [
  ["Mastodon", /\bMastodon\//i],
  ["Fediverse", /\b(Pleroma|Akkoma|Misskey|Sharkey|GoToSocial|Friendica|Pixelfed|Lemmy)\b/i],
  ["Bluesky", /\b(Bluesky|Cardyb|bsky)\b/i],
  ["WhatsApp", /WhatsApp/i],
  ["Slack", /Slack(bot|-ImgProxy)/i],
  ["Discord", /Discordbot/i],
  ["Facebook", /facebookexternalhit|Facebot|meta-externalagent/i],
  // Telegram's bot says it is "like TwitterBot": it is asked first.
  ["Telegram", /TelegramBot/i],
  ["X", /Twitterbot/i],
  ["LinkedIn", /LinkedInBot/i],
  ["Signal", /\bSignal\b/i],
  ["iMessage", /\bApplebot\b|\biMessage/i],
  ["Pinterest", /Pinterest/i],
  ["Reddit", /redditbot/i],
  ["Skype", /SkypeUriPreview/i],
  ["Teams", /MicrosoftPreview|Teams/i],
];

export function previewPlatformOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  for (const [platform, pattern] of PREVIEW_PLATFORMS) {
    if (pattern.test(userAgent)) return platform;
  }
  return undefined;
}
