import type { Archive, ArchiveEntry } from "./archive.ts";
import { addSubscriber, isTrue, readCsv } from "./csv.ts";
import { reduceHtml } from "./html-stanzas.ts";
import { addPoem } from "./poem.ts";
import { decodeText, parseDate } from "./text.ts";
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
 * A Substack export zip (docs/product/import.md): posts.csv lists the posts, posts/{post_id}.html
 * holds each one's text, email_list.*.csv the readers. The post_id is "{number}.{slug}"; the
 * old address is /p/{slug}. Podcasts and discussion threads are skipped with why.
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
  if (postsCsv) {
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
    for (const { fields } of rows) {
      const postId = (fields.post_id ?? "").trim();
      const title = fields.title ?? "";
      const skip = (reason: string) =>
        result.skipped.push({ sourceId: postId, title: title || postId, reason });
      const type = (fields.type ?? "").trim().toLowerCase();
      if (type === "podcast" || (fields.podcast_url ?? "").trim() !== "") {
        skip("A podcast episode: its audio is not a poem's text");
        continue;
      }
      if (type === "thread") {
        skip("A discussion thread, not a post");
        continue;
      }
      const page =
        pages.get(`${folder}posts/${postId}.html`) ??
        (/^\d+\.?$/.test(postId) ? pages.get(postId.replace(".", "")) : undefined);
      if (postId === "" || page === undefined) {
        skip(`Its text is not in the export (posts/${postId}.html is missing)`);
        continue;
      }
      const { stanzas, notes, unreadable } = reduceHtml(decodeText(await page.read(), page.label));
      const subtitle = (fields.subtitle ?? "").trim();
      if (subtitle !== "") notes.push(`Left out the subtitle “${subtitle}”`);
      if (PAID_AUDIENCES.has((fields.audience ?? "").trim())) {
        notes.push("It was for paid subscribers on Substack; here every reader can read it");
      }
      const published = isTrue(fields.is_published);
      const slug = postId.includes(".") ? postId.slice(postId.indexOf(".") + 1) : null;
      addPoem(
        {
          sourceId: postId,
          title,
          slug,
          stanzas,
          unreadable,
          tags: [],
          state: published ? "published" : "draft",
          publishAt: published ? parseDate(fields.post_date, true) : null,
          coverUrl: null,
          coverAlt: null,
          oldPaths: published && slug ? [`/p/${slug}`] : [],
          notes,
        },
        result,
      );
    }
  }
  const subscribers = new Map<string, ImportedSubscriber>();
  for (const list of lists) {
    addSubstackSubscribers(decodeText(await list.read(), list.label), list.label, subscribers);
  }
  result.subscribers = [...subscribers.values()];
  return result;
}
