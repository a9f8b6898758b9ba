import { addSubscriber, csvHeader, isTrue, readCsv } from "./csv.ts";
import { reduceHtml } from "./html-stanzas.ts";
import { readJson } from "./json.ts";
import { addPoem } from "./poem.ts";
import { parseDate, quotedValue } from "./text.ts";
import type { ImportedSubscriber, ParsedImport } from "./types.ts";
import { ImportFileError } from "./types.ts";

type Row = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === "string" ? value : "");
/** An id as text: Ghost 0.x numbered its rows, later Ghost uses strings. */
const idText = (value: unknown): string =>
  typeof value === "number" && Number.isFinite(value) ? String(value) : text(value);
const rows = (value: unknown): Row[] =>
  Array.isArray(value)
    ? value.filter((row): row is Row => typeof row === "object" && row !== null)
    : [];

/**
 * Who could read a post on Ghost, by its visibility, when not everyone could: here every reader
 * can, as this site has no paywall, and the preview says so.
 */
const GHOST_AUDIENCES: Record<string, string> = {
  members: "signed-in members only",
  paid: "paying members only",
  tiers: "members of some tiers only",
  filter: "some members only",
};

const escapeHtml = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * Ghost 5's Lexical document as HTML for reduceHtml: paragraphs, line breaks and text kept,
 * headings and cards (images, embeds, buttons) turned into the elements reduceHtml drops with a
 * note. An HTML card's own HTML and a Markdown card's text go through as they are.
 */
function lexicalHtml(node: unknown): string {
  if (typeof node !== "object" || node === null) return "";
  const item = node as Row;
  const children = rows(item.children).map(lexicalHtml).join("");
  switch (text(item.type)) {
    case "root":
    case "list":
      return children;
    case "paragraph":
    case "quote":
    case "aside":
    case "listitem":
      return `<p>${children}</p>`;
    case "heading":
    case "extended-heading":
      return `<h2>${children}</h2>`;
    case "linebreak":
      return "<br>";
    case "horizontalrule":
      return "<hr>";
    case "html":
      return text(item.html);
    case "markdown":
      return `<pre>${escapeHtml(text(item.markdown))}</pre>`;
    case "image":
    case "gallery":
      return "<img>";
    default:
      if (typeof item.text === "string") return escapeHtml(item.text);
      return children !== "" ? children : "<embed>";
  }
}

/** Ghost's older Mobiledoc document as HTML for reduceHtml, in the same way as Lexical. */
function mobiledocHtml(doc: Row): string {
  const atoms = Array.isArray(doc.atoms) ? doc.atoms : [];
  const cards = Array.isArray(doc.cards) ? doc.cards : [];
  const markers = (list: unknown): string =>
    (Array.isArray(list) ? list : [])
      .map((marker) => {
        if (!Array.isArray(marker)) return "";
        if (marker[0] === 0) return escapeHtml(text(marker[3]));
        const atom = atoms[Number(marker[3])];
        return Array.isArray(atom) && atom[0] === "soft-return"
          ? "<br>"
          : escapeHtml(text(atom?.[1]));
      })
      .join("");
  return (Array.isArray(doc.sections) ? doc.sections : [])
    .map((section) => {
      if (!Array.isArray(section)) return "";
      const [kind, tag, content] = section;
      if (kind === 1)
        return /^h\d$/i.test(text(tag))
          ? `<h2>${markers(content)}</h2>`
          : `<p>${markers(content)}</p>`;
      if (kind === 3)
        return (Array.isArray(content) ? content : [])
          .map((item) => `<p>${markers(item)}</p>`)
          .join("");
      if (kind === 10) {
        const card = cards[Number(tag)];
        const [name, payload] = Array.isArray(card) ? card : [];
        const fields = (payload ?? {}) as Row;
        if (name === "html") return text(fields.html);
        if (name === "markdown" || name === "card-markdown")
          return `<pre>${escapeHtml(text(fields.markdown))}</pre>`;
        if (name === "hr") return "<hr>";
        return name === "image" || name === "gallery" ? "<img>" : "<embed>";
      }
      return kind === 2 ? "<img>" : "";
    })
    .join("");
}

/** The post's text as HTML for reduceHtml, and how its newlines read. */
function bodyHtml(post: Row): { html: string; whitespace: "html" | "breaks" } | null {
  const html = text(post.html);
  if (html.trim() !== "") return { html, whitespace: "html" };
  for (const [field, render] of [
    ["lexical", (doc: Row) => lexicalHtml(doc.root)],
    ["mobiledoc", mobiledocHtml],
  ] as const) {
    const raw = text(post[field]);
    if (raw === "") continue;
    try {
      return { html: render(JSON.parse(raw) as Row), whitespace: "html" };
    } catch {
      // A document that does not parse: the post has no readable text, and is skipped for it.
    }
  }
  // Ghost 0.x kept a post's Markdown (and some exports hold nothing else): a newline is a line
  // break and a blank line a new stanza, as for a plain text poem.
  const markdown = text(post.markdown);
  if (markdown.trim() !== "") return { html: escapeHtml(markdown), whitespace: "breaks" };
  return null;
}

/**
 * The post's old addresses: its own url where the export gives one, and the path Ghost's
 * permalink setting (0.x and 1.x exports hold it; "/:slug/" by default) makes of its slug and
 * date. Ghost always answers /{slug}/ too when the setting is dated, so that form is kept.
 */
function ghostPaths(post: Row, permalinks: string, published: Date | null): string[] {
  const paths: string[] = [];
  const url = text(post.url);
  if (url !== "") {
    try {
      paths.push(new URL(url, "http://old.example").pathname);
    } catch {
      // Not an address: the permalink forms still stand.
    }
  }
  const slug = text(post.slug);
  if (slug === "") return paths;
  const pad = (value: number) => String(value).padStart(2, "0");
  const built = permalinks
    .replaceAll(":slug", slug)
    .replaceAll(":year", published ? String(published.getUTCFullYear()) : ":year")
    .replaceAll(":month", published ? pad(published.getUTCMonth() + 1) : ":month")
    .replaceAll(":day", published ? pad(published.getUTCDate()) : ":day");
  if (!built.includes(":")) paths.push(built);
  paths.push(`/${slug}/`);
  return paths;
}

/**
 * A Ghost JSON export (docs/product/import.md): db[0].data holds posts, tags, posts_tags and (Ghost
 * 5) posts_meta with the cover's description. Pages are skipped with why; Ghost's internal tags
 * (#name) are left out; the old address is /{slug}/.
 */
export function parseGhostExport(
  source: string,
  file: string,
  now: Date = new Date(),
): ParsedImport {
  const json = readJson(source, file) as Row | null;
  const db = (Array.isArray(json?.db) ? json.db[0] : json) as Row | undefined;
  const data = db?.data as Row | undefined;
  if (!data || !Array.isArray(data.posts)) {
    throw new ImportFileError(`${file} is not a Ghost export: it has no db[0].data.posts`, file);
  }
  const result: ParsedImport = { source: "ghost", poems: [], subscribers: [], skipped: [] };
  const tags = new Map(rows(data.tags).map((tag) => [idText(tag.id), tag]));
  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const link of rows(data.posts_tags)) {
    const tag = tags.get(idText(link.tag_id));
    const name = text(tag?.name);
    if (!tag || name === "" || name.startsWith("#") || tag.visibility === "internal") continue;
    const list = tagsOf.get(idText(link.post_id)) ?? [];
    list.push({ name, order: Number(link.sort_order ?? 0) });
    tagsOf.set(idText(link.post_id), list);
  }
  const meta = new Map(rows(data.posts_meta).map((row) => [idText(row.post_id), row]));
  const permalinks =
    text(rows(data.settings).find((setting) => setting.key === "permalinks")?.value) || "/:slug/";
  for (const post of rows(data.posts)) {
    const id = idText(post.id);
    // The uuid is the post's own on any site; an export without one (rare, hand-made) falls back.
    const sourceId = text(post.uuid) || id || text(post.slug);
    const title = text(post.title);
    const skip = (reason: string) =>
      result.skipped.push({ sourceId: id || sourceId, title: title || sourceId, reason });
    // Ghost 0.x and 1.x marked pages with page: 1 (or true); later Ghost with type "page".
    if (post.type === "page" || post.page === 1 || post.page === true) {
      skip("A page, not a post");
      continue;
    }
    const body = bodyHtml(post);
    if (body === null) {
      skip("It has no text in the export");
      continue;
    }
    const { stanzas, notes, unreadable } = reduceHtml(body.html, body.whitespace);
    const status = text(post.status);
    if (status === "sent") notes.push("It was sent by email only on Ghost; here it is published");
    const audience = GHOST_AUDIENCES[text(post.visibility)];
    if (audience) notes.push(`It was for ${audience} on Ghost; here every reader can read it`);
    const state =
      status === "published" || status === "sent"
        ? "published"
        : status === "scheduled"
          ? "scheduled"
          : "draft";
    let coverUrl: string | null = text(post.feature_image) || null;
    if (coverUrl?.startsWith("__GHOST_URL__")) {
      notes.push(
        "Left out the cover image: it was stored on the Ghost site, whose address the export does not give",
      );
      coverUrl = null;
    }
    const slug = text(post.slug) || null;
    const publishAt = state === "draft" ? null : parseDate(post.published_at, true);
    if (state !== "draft" && publishAt === null) {
      notes.push(
        post.published_at == null || post.published_at === ""
          ? "It has no publication date in the export: it is dated at the import"
          : `Its publication date ${quotedValue(post.published_at)} could not be read: it is dated at the import`,
      );
    }
    addPoem(
      {
        sourceId,
        legacyId: id || null,
        title,
        slug,
        stanzas,
        unreadable,
        tags: (tagsOf.get(id) ?? []).sort((a, b) => a.order - b.order).map((tag) => tag.name),
        state,
        publishAt,
        coverUrl,
        coverAlt: text(post.feature_image_alt) || text(meta.get(id)?.feature_image_alt) || null,
        oldPaths: ghostPaths(post, permalinks, publishAt),
        notes,
      },
      result,
      now,
    );
  }
  return result;
}

/**
 * Ghost's members CSV: a member receives email when subscribed_to_emails (before Ghost 3:
 * subscribed) is true and they are neither deleted nor bounced (deleted_at, or an email_disabled
 * or bounced column where the export has one).
 */
export function parseGhostMembers(source: string, file: string): ParsedImport {
  const subscribers = new Map<string, ImportedSubscriber>();
  // Before Ghost 3 the column was "subscribed"; a list without either is read as Ghost's own
  // members import reads it: every member subscribed.
  const header = csvHeader(source);
  const column = ["subscribed_to_emails", "subscribed"].find((name) => header.includes(name));
  for (const { fields } of readCsv(source, file, ["email"])) {
    const deleted = (fields.deleted_at ?? "").trim() !== "" || isTrue(fields.deleted);
    const bounced =
      isTrue(fields.email_disabled) || isTrue(fields.bounced) || isTrue(fields.email_bounced);
    const subscribed = column === undefined || isTrue(fields[column]);
    addSubscriber(subscribers, {
      email: fields.email ?? "",
      name: fields.name ?? null,
      receivingEmail: subscribed && !deleted && !bounced,
      why: deleted
        ? "They were deleted on Ghost"
        : bounced
          ? "Email to them bounced on Ghost"
          : "They were not subscribed to emails on Ghost",
      createdAt: fields.created_at,
    });
  }
  return { source: "ghost", poems: [], subscribers: [...subscribers.values()], skipped: [] };
}
