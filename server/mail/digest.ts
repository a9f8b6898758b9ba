import { formatLongDay } from "../../common/dates.ts";
import type { DigestContent } from "../../common/schemas/digest.ts";
import { stanzaLines } from "../../common/stanza.ts";
import { escapeMarkup } from "../escape.ts";
import { emailLayout } from "./html.ts";

export interface DigestLinks {
  publicUrl: string;
  /** The subscriber's own signed link; a preview, written for no one, shows the plain page. */
  unsubscribeUrl: URL;
}

const heading = (title: string) =>
  `<h2 style="font-size:13px;letter-spacing:.12em;text-transform:uppercase;color:#9f4314;margin:32px 0 12px">${escapeMarkup(title)}</h2>`;

/** Lines of content as escaped HTML, each on its own line: nothing from the site is markup. */
const htmlLines = (lines: string[]) => lines.map(escapeMarkup).join("<br>");

/**
 * The weekly digest as HTML and plain text. Every value comes from the site's content (or the
 * admin's payload) and is escaped: a title or stanza with markup shows as text.
 */
export function digestEmail(
  siteName: string,
  content: DigestContent,
  links: DigestLinks,
): { html: string; text: string } {
  const url = (path: string) => new URL(path, links.publicUrl).toString();
  const poemUrl = (slug: string) => url(`/poetry/${encodeURIComponent(slug)}`);
  const stanzaUrl = (slug: string, index: number) =>
    url(`/share/poem/${encodeURIComponent(slug)}?s=${index}`);
  const { featuredEmber, topEchoedStanzas, newPoems } = content;
  const emberDay = formatLongDay(featuredEmber.date);
  const echoes = (count: number) => `${count} ${count === 1 ? "echo" : "echoes"}`;

  const html = emailLayout(
    siteName,
    [
      heading("Ember of the Week"),
      `<p style="font-size:19px;line-height:1.6;margin:0">${htmlLines(featuredEmber.text.split("\n"))}</p>`,
      `<p style="font-size:13px;color:#78716c;margin:8px 0 0">${escapeMarkup(emberDay)}</p>`,
      topEchoedStanzas.length > 0 ? heading("Most Echoed Stanzas") : "",
      ...topEchoedStanzas.map(
        (item) =>
          `<blockquote style="margin:0 0 20px;padding:0 0 0 16px;border-left:3px solid #e7d8c9">
<p style="font-size:16px;line-height:1.6;margin:0">${htmlLines(stanzaLines(item.stanza))}</p>
<p style="font-size:13px;color:#78716c;margin:6px 0 0"><a href="${escapeMarkup(stanzaUrl(item.poem.slug, item.stanzaIndex))}" style="color:#9f4314">${escapeMarkup(item.poem.title)}</a> · ${escapeMarkup(echoes(item.echoCount))}</p>
</blockquote>`,
      ),
      newPoems.length > 0 ? heading("New Poems") : "",
      ...newPoems.map(
        (poem) =>
          `<p style="font-size:17px;margin:0 0 4px"><a href="${escapeMarkup(poemUrl(poem.slug))}" style="color:#1c1917">${escapeMarkup(poem.title)}</a></p>
<p style="font-size:15px;line-height:1.6;color:#57534e;margin:0 0 20px">${htmlLines(stanzaLines(poem.stanzas[0] ?? ""))}</p>`,
      ),
      `<p style="margin:32px 0"><a href="${escapeMarkup(url("/poetry"))}" style="background:#9f4314;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none">Read more poems</a></p>`,
      `<p style="font-size:12px;color:#78716c;line-height:1.6">You receive this because you subscribed to the weekly digest from ${escapeMarkup(siteName)}. <a href="${escapeMarkup(links.unsubscribeUrl.toString())}" style="color:#78716c">Unsubscribe</a></p>`,
    ]
      .filter(Boolean)
      .join("\n"),
  );

  const text = [
    `${siteName}: the weekly digest`,
    "",
    "EMBER OF THE WEEK",
    featuredEmber.text,
    emberDay,
    ...(topEchoedStanzas.length > 0 ? ["", "MOST ECHOED STANZAS"] : []),
    ...topEchoedStanzas.flatMap((item) => [
      "",
      ...stanzaLines(item.stanza),
      `- ${item.poem.title}, ${echoes(item.echoCount)}: ${stanzaUrl(item.poem.slug, item.stanzaIndex)}`,
    ]),
    ...(newPoems.length > 0 ? ["", "NEW POEMS"] : []),
    ...newPoems.flatMap((poem) => [
      "",
      `${poem.title}: ${poemUrl(poem.slug)}`,
      ...stanzaLines(poem.stanzas[0] ?? ""),
    ]),
    "",
    `Read more poems: ${url("/poetry")}`,
    "",
    `Unsubscribe: ${links.unsubscribeUrl}`,
  ].join("\n");

  return { html, text };
}
