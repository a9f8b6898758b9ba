import type { Archive, ArchiveEntry } from "./archive.ts";
import { addSubscriber, type CsvRow, isTrue, readCsv } from "./csv.ts";
import { plainText, reduceHtml } from "./html-stanzas.ts";
import { addPoem } from "./poem.ts";
import { decodeText, parseDate, quotedValue } from "./text.ts";
import type { ImportedSubscriber, ParsedImport } from "./types.ts";
import { ImportFileError } from "./types.ts";

const POSTS_COLUMNS = ["post_id", "title", "is_published"];
const EMAIL_LIST = /(^|\/)email_list[^/]*\.csv$/i;

/** Substack's audiences that were behind its paywall. */
const PAID_AUDIENCES = new Set(["only_paid", "founding"]);

/**
 * Substack's email list (email_list.{publication}.csv): a reader receives email unless
 * email_disabled is true. active_subscription is about a paid plan and says nothing about email.
 */
export function addSubstackSubscribers(
  text: string,
  file: string,
  into: Map<string, ImportedSubscriber>,
): void {
  for (const { fields } of readCsv(text, file, ["email"])) {
    addSubscriber(into, {
      email: fields.email ?? "",
      name: fields.name ?? null,
      receivingEmail: !isTrue(fields.email_disabled),
      why: "They had turned email off on Substack",
      createdAt: fields.created_at,
    });
  }
}

/**
 * A podcast's audio kept as the poem's reading (the export holds its link, not the file). The
 * import copies it to this site when it copies files; otherwise, or when it cannot be fetched,
 * an https link stays the reading and any other is left out (docs/product/import.md).
 */
function podcastAudio(url: string, notes: string[]): string | null {
  if (/^https?:\/\/[^\s]+$/i.test(url) && url.length <= 2000) {
    const otherwise = /^https:/i.test(url)
      ? "else it stays a link to Substack's file"
      : "else it is left out, as its link is not https";
    notes.push(
      `A podcast episode on Substack: its text comes in as the poem, its audio as the poem's reading, copied to this site with the covers (${otherwise})`,
    );
    return url;
  }
  notes.push(
    "A podcast episode on Substack: its text comes in as the poem; its audio is not in the export",
  );
  return null;
}

/**
 * A Substack export zip (docs/product/import.md): posts.csv lists the posts, posts/{post_id}.html
 * holds each one's text, email_list.*.csv the readers. The post_id is "{number}.{slug}"; the
 * old address is /p/{slug}. Pages and discussion threads are skipped with why; a podcast episode
 * with text can be chosen, its audio its reading.
 */
export async function parseSubstack(archive: Archive): Promise<ParsedImport> {
  const result: ParsedImport = { source: "substack", poems: [], subscribers: [], skipped: [] };
  const postsCsv = archive.entries
    .filter((entry) => entry.name === "posts.csv" || entry.name.endsWith("/posts.csv"))
    .sort((a, b) => a.name.length - b.name.length)[0];
  const lists = archive.entries.filter((entry) => EMAIL_LIST.test(entry.name));
  if (postsCsv === undefined && lists.length === 0) {
    throw new ImportFileError(
      `${archive.label} is not a Substack export: it has no posts.csv and no email_list CSV`,
      archive.label,
    );
  }
  if (postsCsv) await addPosts(archive, postsCsv, result);
  const subscribers = new Map<string, ImportedSubscriber>();
  for (const list of lists) {
    addSubstackSubscribers(decodeText(await list.read(), list.label), list.label, subscribers);
  }
  result.subscribers = [...subscribers.values()];
  return result;
}

/** posts.csv's posts, each with its text from the posts folder beside it. */
async function addPosts(
  archive: Archive,
  postsCsv: ArchiveEntry,
  result: ParsedImport,
): Promise<void> {
  const folder = postsCsv.name.slice(0, postsCsv.name.length - "posts.csv".length);
  // A post's text is posts/{post_id}.html; a post whose id has no slug is found by its number.
  const pages = new Map<string, ArchiveEntry>();
  for (const entry of archive.entries) {
    if (!entry.name.startsWith(`${folder}posts/`) || !entry.name.endsWith(".html")) continue;
    pages.set(entry.name, entry);
    const number = /^\d+/.exec(entry.name.slice(folder.length + "posts/".length))?.[0];
    if (number !== undefined && !pages.has(number)) pages.set(number, entry);
  }
  const rows = readCsv(
    decodeText(await postsCsv.read(), postsCsv.label),
    postsCsv.label,
    POSTS_COLUMNS,
  );
  for (const { fields } of rows) await addPost(fields, { folder, pages }, result);
}

/** One row of posts.csv: a poem, or an item skipped with why. */
async function addPost(
  fields: CsvRow["fields"],
  posts: { folder: string; pages: Map<string, ArchiveEntry> },
  result: ParsedImport,
): Promise<void> {
  const { folder, pages } = posts;
  const postId = (fields.post_id ?? "").trim();
  const title = fields.title ?? "";
  const skip = (reason: string) =>
    result.skipped.push({ sourceId: postId, title: title || postId, reason });
  const type = (fields.type ?? "").trim().toLowerCase();
  const podcastUrl = (fields.podcast_url ?? "").trim();
  const podcast = type === "podcast" || podcastUrl !== "";
  if (type === "thread") {
    skip("A discussion thread, not a post");
    return;
  }
  if (type === "page") {
    skip("A page, not a post");
    return;
  }
  const page =
    pages.get(`${folder}posts/${postId}.html`) ??
    (/^\d+\.?$/.test(postId) ? pages.get(postId.replace(".", "")) : undefined);
  if (postId === "" || page === undefined) {
    skip(
      podcast
        ? "A podcast episode with no text in the export"
        : `Its text is not in the export (posts/${postId}.html is missing)`,
    );
    return;
  }
  const { stanzas, notes, unreadable } = reduceHtml(decodeText(await page.read(), page.label));
  if (podcast && stanzas.length === 0) {
    skip("A podcast episode: its audio is not a poem's text, and it has no text");
    return;
  }
  const audioUrl = podcast ? podcastAudio(podcastUrl, notes) : null;
  const subtitle = plainText(fields.subtitle ?? "").trim();
  if (subtitle !== "") notes.push(`Left out the subtitle “${subtitle}”`);
  if (PAID_AUDIENCES.has((fields.audience ?? "").trim())) {
    notes.push("It was for paid subscribers on Substack; here every reader can read it");
  }
  const published = isTrue(fields.is_published);
  const publishAt = published ? parseDate(fields.post_date, true) : null;
  if (published && publishAt === null) {
    const raw = (fields.post_date ?? "").trim();
    notes.push(
      raw === ""
        ? "It has no date in the export: it is dated at the import"
        : `Its date ${quotedValue(raw)} could not be read: it is dated at the import`,
    );
  }
  const slug = postId.includes(".") ? postId.slice(postId.indexOf(".") + 1) : null;
  addPoem(
    {
      sourceId: postId,
      title: plainText(title),
      slug,
      stanzas,
      unreadable,
      tags: [],
      state: published ? "published" : "draft",
      publishAt,
      coverUrl: null,
      coverAlt: null,
      oldPaths: slug ? [`/p/${slug}`] : [],
      audioUrl,
      // An episode is the poet's to choose: its text may be a poem, or notes to the audio.
      chosen: !podcast,
      notes,
    },
    result,
  );
}
