import { XMLParser, XMLValidator } from "fast-xml-parser";
import { plainText, reduceHtml } from "./html-stanzas.ts";
import { addPoem } from "./poem.ts";
import { lineAt, parseDate, quotedValue } from "./text.ts";
import type { ParsedImport } from "./types.ts";
import { ImportFileError } from "./types.ts";

type Node = Record<string, unknown>;

/** Elements that repeat in a WXR, read as lists even when there is one. */
const LISTS = new Set([
  "item",
  "category",
  "wp:postmeta",
  "wp:category",
  "wp:tag",
  "wp:term",
  "wp:author",
]);

/**
 * Refuses an XML file that declares a document type (decision 051): a DTD is where entities are
 * declared, so both the billion-laughs expansion and external entities (a file or address read in
 * place of an entity) start there. A WordPress export never has one. CDATA sections and comments
 * are passed over, so a post about XML is not mistaken for one.
 */
function refuseDocumentTypes(xml: string, file: string): void {
  // One pass with indexOf: a regular expression over unclosed "<!--" would take quadratic time.
  let at = xml.indexOf("<!");
  while (at >= 0) {
    const skipTo = xml.startsWith("<![CDATA[", at)
      ? "]]>"
      : xml.startsWith("<!--", at)
        ? "-->"
        : null;
    if (skipTo !== null) {
      const end = xml.indexOf(skipTo, at + 4);
      if (end < 0) return; // Unclosed: the validator refuses the file with its line.
      at = xml.indexOf("<!", end + skipTo.length);
      continue;
    }
    const declaration = /^<!(DOCTYPE|ENTITY)\b/i.exec(xml.slice(at, at + 10))?.[1];
    if (declaration !== undefined) {
      const line = lineAt(xml, at);
      throw new ImportFileError(
        `${file}, line ${line}: it declares a document type (<!${declaration.toUpperCase()}>), which an import never reads: entities could expand without end or read other files`,
        file,
        line,
      );
    }
    at = xml.indexOf("<!", at + 2);
  }
}

const textOf = (value: unknown): string => {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && value !== null && "#text" in value)
    return textOf((value as Node)["#text"]);
  return "";
};
const nodes = (value: unknown): Node[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (node): node is Node => typeof node === "object" && node !== null,
  );

/** A WordPress title: its entities (&#8217;, &amp;) decoded, any markup left out. */
function plainTitle(value: unknown): string {
  return plainText(textOf(value));
}

function meta(item: Node, key: string): string {
  const row = nodes(item["wp:postmeta"]).find((entry) => textOf(entry["wp:meta_key"]) === key);
  return row ? textOf(row["wp:meta_value"]).trim() : "";
}

/** Why an item that is not a post is passed over. */
const NOT_POSTS: Record<string, string> = {
  page: "A page, not a post",
  attachment: "A media file, not a post",
  nav_menu_item: "A menu item, not a post",
  revision: "An earlier revision of a post",
};

/** A site's address as its identity: no scheme, no trailing slash, lowercase host. */
function siteOf(address: string): string {
  const text = address.trim();
  if (text === "") return "";
  try {
    const url = new URL(text);
    return `${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return text.replace(/^[a-z]+:\/\//i, "").replace(/\/+$/, "");
  }
}

/**
 * The site's offset from UTC in minutes, learned from the items that carry both wp:post_date
 * (the site's zone) and wp:post_date_gmt; null when none does.
 */
function siteOffset(items: Node[]): number | null {
  for (const item of items) {
    const local = parseDate(textOf(item["wp:post_date"]), true);
    const utc = parseDate(textOf(item["wp:post_date_gmt"]), true);
    if (local && utc) return Math.round((local.getTime() - utc.getTime()) / 60_000);
  }
  return null;
}

/**
 * The item's date (docs/product/import.md): wp:post_date_gmt; when WordPress left it
 * "0000-00-00 00:00:00" (drafts, and posts saved by some tools), wp:post_date in the site's zone,
 * whose offset the other items tell (noted as guessed when none does); else the RSS pubDate.
 */
function itemDate(item: Node, offset: number | null, notes: string[]): Date | null {
  const utc = parseDate(textOf(item["wp:post_date_gmt"]), true);
  if (utc) return utc;
  const local = parseDate(textOf(item["wp:post_date"]), true);
  if (local) {
    if (offset === null) {
      notes.push(
        "Its date was saved without a time zone: it is read as UTC, since no other post of the export tells the site's zone",
      );
    }
    return new Date(local.getTime() - (offset ?? 0) * 60_000);
  }
  const pubDate = textOf(item.pubDate).trim();
  const fromFeed = /^Mon, 30 Nov -0001/.test(pubDate) ? null : parseDate(pubDate);
  if (fromFeed) return fromFeed;
  const raw = textOf(item["wp:post_date"]).trim() || pubDate;
  if (raw !== "" && !raw.startsWith("0000-00-00")) {
    notes.push(`Its date ${quotedValue(raw)} could not be read`);
  }
  return null;
}

/**
 * The addresses readers have for an item: its real permalink (<link>, whatever the site's
 * permalink structure), the dated form WordPress's default structure gives (in the site's own
 * folder), and /?p={id}, which every WordPress site answers whatever its structure.
 */
function itemPaths(item: Node, base: string, slug: string | null, id: string): string[] {
  const paths: string[] = [];
  const link = textOf(item.link).trim();
  if (link.startsWith("/")) paths.push(link);
  else if (link !== "") {
    try {
      const url = new URL(link);
      // A query is an address only as WordPress's /?p={id}; elsewhere it is not part of a path.
      if (url.search === "") paths.push(url.pathname);
      else if (url.pathname === "/" && /^\?p=\d+$/.test(url.search)) paths.push(`/${url.search}`);
    } catch {
      // Not an address: the other forms still stand.
    }
  }
  const folder = base.includes("/") ? base.slice(base.indexOf("/")) : "";
  const localDate = /^(\d{4})-(\d{2})-(\d{2})/.exec(textOf(item["wp:post_date"]).trim());
  if (slug && localDate) {
    paths.push(`${folder}/${localDate[1]}/${localDate[2]}/${localDate[3]}/${slug}/`);
  }
  // /?p= is the home page's query: only a site at its domain's root has it there.
  if (id !== "" && folder === "") paths.push(`/?p=${id}`);
  return paths;
}

/**
 * A WordPress WXR export (docs/product/import.md): RSS 2.0 with WordPress's wp: namespace. Each
 * item whose wp:post_type is post becomes a poem: content:encoded (block-editor HTML, or the
 * classic editor's text where a newline is a line break), wp:status publish/future/draft/private,
 * wp:post_name, tags from category domain="post_tag", its date, and the featured image through
 * _thumbnail_id to its attachment. It is known by its guid on its site (wp:base_blog_url).
 */
export function parseWordPress(xml: string, file: string, now: Date = new Date()): ParsedImport {
  const { channel, items } = readChannel(xml, file);
  const site = siteOf(
    textOf(channel["wp:base_blog_url"]) ||
      textOf(channel.link) ||
      textOf(channel["wp:base_site_url"]),
  );
  const offset = siteOffset(items);
  const attachments = new Map<string, { url: string; alt: string }>();
  const guids = new Map<string, number>();
  for (const item of items) {
    if (textOf(item["wp:post_type"]) === "attachment") {
      attachments.set(textOf(item["wp:post_id"]).trim(), {
        url: textOf(item["wp:attachment_url"]).trim(),
        alt: meta(item, "_wp_attachment_image_alt"),
      });
    }
    const guid = textOf(item.guid).trim();
    if (guid !== "") guids.set(guid, (guids.get(guid) ?? 0) + 1);
  }
  const result: ParsedImport = { source: "wordpress", poems: [], subscribers: [], skipped: [] };
  for (const item of items) {
    const id = textOf(item["wp:post_id"]).trim();
    const guid = textOf(item.guid).trim();
    // A guid two items share (WordPress.com's test data has some) is told apart by the post's id.
    const sourceId = guid === "" ? `?p=${id}` : (guids.get(guid) ?? 0) > 1 ? `${guid}#${id}` : guid;
    const title = plainTitle(item.title);
    const type = textOf(item["wp:post_type"]).trim();
    const skip = (reason: string) =>
      result.skipped.push({ sourceId: id || sourceId, title: title || id, reason });
    if (type !== "post") {
      skip(NOT_POSTS[type] ?? `An item of the kind “${type || "unnamed"}”, not a post`);
      continue;
    }
    const status = textOf(item["wp:status"]).trim();
    if (status === "trash") {
      skip("It was in the trash on WordPress");
      continue;
    }
    const content = textOf(item["content:encoded"]);
    // Block-editor content marks its blocks; the classic editor's newlines are its line breaks.
    const { stanzas, notes, unreadable } = reduceHtml(
      content,
      content.includes("<!-- wp:") ? "html" : "breaks",
    );
    const state = status === "publish" ? "published" : status === "future" ? "scheduled" : "draft";
    if (status === "private") notes.push("It was private on WordPress: it comes in as a draft");
    if (textOf(item["wp:post_password"]) !== "") {
      notes.push("It was protected by a password on WordPress; here every reader can read it");
    }
    const slug = textOf(item["wp:post_name"]).trim() || null;
    const date = state === "draft" ? null : itemDate(item, offset, notes);
    if (state === "published" && date === null) {
      notes.push("It has no date in the export: it is dated at the import");
    }
    const cover = attachments.get(meta(item, "_thumbnail_id"));
    const tags = nodes(item.category)
      .filter((category) => category["@_domain"] === "post_tag")
      .map((category) => plainTitle(category));
    addPoem(
      {
        site,
        sourceId,
        legacyId: id || null,
        title,
        slug,
        stanzas,
        unreadable,
        tags,
        state,
        publishAt: date,
        coverUrl: cover?.url || null,
        coverAlt: cover?.alt || null,
        oldPaths: itemPaths(item, site, slug, id),
        notes,
      },
      result,
      now,
    );
  }
  return result;
}

/** The WXR's channel and items, after the checks of decision 051 (no DTD, well-formed XML). */
function readChannel(xml: string, file: string): { channel: Node; items: Node[] } {
  refuseDocumentTypes(xml, file);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    const { line } = valid.err;
    const msg = valid.err.msg.slice(0, 200);
    throw new ImportFileError(
      `${file}, line ${line}: it is not well-formed XML (${msg})`,
      file,
      line,
    );
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseTagValue: false,
    parseAttributeValue: false,
    htmlEntities: false,
    processEntities: true,
    isArray: (name) => LISTS.has(name),
  });
  let document: Node;
  try {
    document = parser.parse(xml) as Node;
  } catch (error) {
    // The validator passes a few forms the parser still rejects (an unclosed processing instruction).
    throw new ImportFileError(
      `${file}: it is not well-formed XML (${(error as Error).message})`,
      file,
    );
  }
  const channel = (document.rss as Node | undefined)?.channel as Node | undefined;
  const rss = document.rss as Node | undefined;
  if (!channel || !rss || (!("@_xmlns:wp" in rss) && !("wp:wxr_version" in channel))) {
    throw new ImportFileError(
      `${file} is XML but not a WordPress export (no rss channel with the wp: namespace)`,
      file,
    );
  }
  return { channel, items: nodes(channel.item) };
}
