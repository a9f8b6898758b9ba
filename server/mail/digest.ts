import { formatLongDay } from "../../common/dates.ts";
import * as pages from "../../common/pages.ts";
import * as paths from "../../common/paths.ts";
import type { DigestContent } from "../../common/schemas/digest.ts";
import { stanzaLines, withIndentationKept } from "../../common/stanza.ts";
import { escapeMarkup } from "../escape.ts";
import { emailLayout, type MailSite, textSignature } from "./html.ts";

export interface DigestLinks {
  publicUrl: string;
  /** The subscriber's own signed link; a preview, written for no one, shows the plain page. */
  unsubscribeUrl: URL;
  /**
   * The address a reader follows for the digest's link at `position` (its click redirect, which
   * counts it); a preview links straight to the pages. Never the unsubscribe link, which must
   * name its subscriber.
   */
  linkUrl?: (position: number, target: string) => string;
}

/**
 * Whom one digest is written to: a subscriber with a name (one an import brought from Ghost) is
 * greeted by it; one without, and a preview, which is written for no one, are greeted by no one.
 */
export interface DigestReader {
  name: string | null;
}

/** 'Dear {name},' with the name's spaces and line breaks made one space; none without a name. */
function greetingOf(reader: DigestReader | undefined): string | null {
  const name = reader?.name?.replace(/\s+/g, " ").trim() ?? "";
  return name === "" ? null : `Dear ${name},`;
}

/**
 * Every link of a digest but the unsubscribe link, in one fixed order: the most echoed stanzas,
 * the new poems, 'Read more poems', then the footer's link to the site. A click redirect names a
 * link by its position here.
 */
export function digestLinkTargets(content: DigestContent, publicUrl: string): string[] {
  const url = (path: string) => new URL(path, publicUrl).toString();
  return [
    ...content.topEchoedStanzas.map((item) =>
      url(paths.sharedStanza(item.poem.slug, item.stanzaIndex)),
    ),
    ...content.newPoems.map((poem) => url(paths.poem(poem.slug))),
    url(pages.poetry),
    url("/"),
  ];
}

const heading = (title: string) =>
  `<h2 style="font-size:13px;letter-spacing:.12em;text-transform:uppercase;color:#9f4314;margin:32px 0 12px">${escapeMarkup(title)}</h2>`;

/** Lines of content as escaped HTML, each on its own line: nothing from the site is markup. */
const htmlLines = (lines: string[]) =>
  lines.map((line) => escapeMarkup(withIndentationKept(line))).join("<br>");

/**
 * The weekly digest as HTML and plain text. Every value comes from the site's content (or the
 * admin's payload) and is escaped: a title or stanza with markup shows as text.
 */
export function digestEmail(
  site: MailSite,
  content: DigestContent,
  links: DigestLinks,
  reader?: DigestReader,
): { html: string; text: string } {
  const targets = digestLinkTargets(content, links.publicUrl);
  const link = (position: number) => {
    const target = targets[position] ?? "";
    return links.linkUrl ? links.linkUrl(position, target) : target;
  };
  const { featuredEmber, topEchoedStanzas, newPoems } = content;
  const stanzaUrl = (position: number) => link(position);
  const poemUrl = (position: number) => link(topEchoedStanzas.length + position);
  const moreUrl = link(targets.length - 2);
  const homeUrl = link(targets.length - 1);
  const emberDay = formatLongDay(featuredEmber.date);
  const echoes = (count: number) => `${count} ${count === 1 ? "echo" : "echoes"}`;
  const greeting = greetingOf(reader);

  const html = emailLayout(
    site,
    [
      greeting === null
        ? ""
        : `<p style="font-size:17px;line-height:1.6;margin:0 0 8px">${escapeMarkup(greeting)}</p>`,
      heading("Ember of the Week"),
      `<p style="font-size:19px;line-height:1.6;margin:0">${htmlLines(featuredEmber.text.split("\n"))}</p>`,
      `<p style="font-size:13px;color:#78716c;margin:8px 0 0">${escapeMarkup(emberDay)}</p>`,
      topEchoedStanzas.length > 0 ? heading("Most Echoed Stanzas") : "",
      ...topEchoedStanzas.map(
        (item, position) =>
          `<blockquote style="margin:0 0 20px;padding:0 0 0 16px;border-left:3px solid #e7d8c9">
<p style="font-size:16px;line-height:1.6;margin:0">${htmlLines(stanzaLines(item.stanza))}</p>
<p style="font-size:13px;color:#78716c;margin:6px 0 0"><a href="${escapeMarkup(stanzaUrl(position))}" style="color:#9f4314">${escapeMarkup(item.poem.title)}</a> · ${escapeMarkup(echoes(item.echoCount))}</p>
</blockquote>`,
      ),
      newPoems.length > 0 ? heading("New Poems") : "",
      ...newPoems.map(
        (poem, position) =>
          `<p style="font-size:17px;margin:0 0 4px"><a href="${escapeMarkup(poemUrl(position))}" style="color:#1c1917">${escapeMarkup(poem.title)}</a></p>
<p style="font-size:15px;line-height:1.6;color:#57534e;margin:0 0 20px">${htmlLines(stanzaLines(poem.stanzas[0] ?? ""))}</p>`,
      ),
      `<p style="margin:32px 0"><a href="${escapeMarkup(moreUrl)}" style="background:#9f4314;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none">Read more poems</a></p>`,
      `<p style="font-size:12px;color:#78716c;line-height:1.6">You receive this because you subscribed to the weekly digest from ${escapeMarkup(site.name)}. <a href="${escapeMarkup(links.unsubscribeUrl.toString())}" style="color:#78716c">Unsubscribe</a></p>`,
    ]
      .filter(Boolean)
      .join("\n"),
    homeUrl,
  );

  const text = [
    `${site.name}: the weekly digest`,
    "",
    ...(greeting === null ? [] : [greeting, ""]),
    "EMBER OF THE WEEK",
    featuredEmber.text,
    emberDay,
    ...(topEchoedStanzas.length > 0 ? ["", "MOST ECHOED STANZAS"] : []),
    ...topEchoedStanzas.flatMap((item, position) => [
      "",
      ...stanzaLines(item.stanza),
      `- ${item.poem.title}, ${echoes(item.echoCount)}: ${stanzaUrl(position)}`,
    ]),
    ...(newPoems.length > 0 ? ["", "NEW POEMS"] : []),
    ...newPoems.flatMap((poem, position) => [
      "",
      `${poem.title}: ${poemUrl(position)}`,
      ...stanzaLines(poem.stanzas[0] ?? ""),
    ]),
    "",
    `Read more poems: ${moreUrl}`,
    "",
    `You receive this because you subscribed to the weekly digest from ${site.name}.`,
    `Unsubscribe: ${links.unsubscribeUrl}`,
    ...textSignature(site),
  ].join("\n");

  return { html, text };
}
