import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { type Archive, looksLikeZip, openDirectory, openZip } from "./archive.ts";
import { csvHeader } from "./csv.ts";
import { parseGhostExport, parseGhostMembers } from "./ghost.ts";
import { IMPORT_MAX_BYTES } from "./limits.ts";
import { isPoemFile, parsePlainFiles } from "./plain-files.ts";
import { addSubstackSubscribers, parseSubstack } from "./substack.ts";
import { decodeText } from "./text.ts";
import type { ImportedSubscriber, ImportSource, ParsedImport } from "./types.ts";
import { ImportFileError } from "./types.ts";
import { parseWordPress } from "./wordpress.ts";

/** What a parser reads: one uploaded file's bytes, or a folder on disk (the CLI). */
export type ImportInput = { fileName: string; bytes: Uint8Array } | { directory: string };

export interface ParseOptions {
  /** "Now", for a plain file dated in the future (scheduled): the service's clock. */
  now?: Date;
}

const EXPECTED: Record<ImportSource, string> = {
  substack: "a Substack export (.zip)",
  ghost: "a Ghost export (.json) or Ghost members file (.csv)",
  wordpress: "a WordPress export (WXR .xml)",
  files: "a .zip or folder of .md and .txt poems, or one such file",
};

const ANY = "a Substack, Ghost, WordPress or plain-text export";

/**
 * Columns only Ghost's members export has (with or without subscribed_to_emails, which Ghost 3
 * renamed from "subscribed"); Substack's email list has active_subscription and expiry
 * instead. A list with the email column alone is read as the source the poet names.
 */
const GHOST_MEMBER_COLUMNS = [
  "subscribed_to_emails",
  "subscribed",
  "note",
  "labels",
  "complimentary_plan",
  "stripe_customer_id",
  "tiers",
  "products",
  "newsletters",
];
const SUBSTACK_LIST_COLUMNS = ["active_subscription", "expiry"];

function isGhostMembersHeader(header: string[]): boolean {
  if (header.includes("subscribed_to_emails")) return true;
  return (
    GHOST_MEMBER_COLUMNS.some((column) => header.includes(column)) &&
    !SUBSTACK_LIST_COLUMNS.some((column) => header.includes(column))
  );
}

/** The poet's words for a file that is not what was expected. */
async function wrongKind(
  bytes: Uint8Array,
  file: string,
  source: ImportSource | undefined,
  seen?: string,
): Promise<never> {
  let what = seen;
  if (what === undefined) {
    const type = await fileTypeFromBuffer(bytes.subarray(0, 4100)).catch(() => undefined);
    what = type ? `a ${type.ext.toUpperCase()} file` : "not an export this site reads";
  }
  throw new ImportFileError(
    `${file} is ${what}; expected ${source ? EXPECTED[source] : ANY}`,
    file,
  );
}

/**
 * Reads a platform's export into one normalised result (docs/product/import.md, decision 051).
 * The source is detected from the content when not given. Every refusal is an ImportFileError
 * naming the file (and the entry of an archive) and the line where it applies.
 */
export async function parseImport(
  input: ImportInput,
  source?: ImportSource,
  options: ParseOptions = {},
): Promise<ParsedImport> {
  const now = options.now ?? new Date();
  if ("directory" in input) {
    return parseArchive(await openDirectory(input.directory), source, now);
  }
  const file = path.posix.basename(input.fileName.replaceAll("\\", "/")) || "the file";
  const { bytes } = input;
  if (bytes.length > IMPORT_MAX_BYTES) {
    throw new ImportFileError(
      `${file} is larger than ${IMPORT_MAX_BYTES / 1_048_576} MB, the most an import reads`,
      file,
    );
  }
  if (bytes.length === 0) throw new ImportFileError(`${file} is empty`, file);
  if (looksLikeZip(bytes)) return parseArchive(openZip(bytes, file), source, now);
  return parseFile(bytes, file, source, now);
}

/** One file that is not an archive: a text export, or the wrong kind of file altogether. */
async function parseFile(
  bytes: Uint8Array,
  file: string,
  source: ImportSource | undefined,
  now: Date,
): Promise<ParsedImport> {
  const type = await fileTypeFromBuffer(bytes.subarray(0, 4100)).catch(() => undefined);
  if (type && type.mime !== "application/xml") return wrongKind(bytes, file, source);
  if (isPoemFile(file) && (source === undefined || source === "files")) {
    const entry = { name: file, size: bytes.length, label: file, read: async () => bytes };
    return parsePlainFiles({ label: file, entries: [entry] }, now);
  }
  const text = decodeText(bytes, file).replace(/^\ufeff/, "");
  const start = text.trimStart()[0];
  if (start === "{" || start === "[") {
    if (source !== undefined && source !== "ghost") {
      return wrongKind(bytes, file, source, "a JSON file");
    }
    return parseGhostExport(text, file, now);
  }
  if (start === "<") {
    if (source !== undefined && source !== "wordpress") {
      return wrongKind(bytes, file, source, "an XML file");
    }
    return parseWordPress(text, file, now);
  }
  const header = csvHeader(text);
  if (header.includes("email")) {
    const ghost = source === "ghost" || isGhostMembersHeader(header);
    if (ghost && (source === undefined || source === "ghost")) return parseGhostMembers(text, file);
    if (!ghost && (source === undefined || source === "substack")) {
      const subscribers = new Map<string, ImportedSubscriber>();
      addSubstackSubscribers(text, file, subscribers);
      return { source: "substack", poems: [], subscribers: [...subscribers.values()], skipped: [] };
    }
    return wrongKind(bytes, file, source, ghost ? "a Ghost members file" : "a subscriber list");
  }
  if (header.includes("post_id")) {
    throw new ImportFileError(
      `${file} is Substack's list of posts without their text: give the whole Substack export (.zip)`,
      file,
    );
  }
  return wrongKind(bytes, file, source);
}

/**
 * A zip or folder: a Substack export when it has posts.csv or an email list; poem files when it
 * has .md or .txt files; else exports packed in a zip (WordPress.com's export is a zip of WXR
 * files; a Ghost export may be zipped by hand), each read as its own file and joined.
 */
async function parseArchive(
  archive: Archive,
  source: ImportSource | undefined,
  now: Date,
): Promise<ParsedImport> {
  const substack = archive.entries.some(
    (entry) =>
      /(^|\/)posts\.csv$/.test(entry.name) || /(^|\/)email_list[^/]*\.csv$/i.test(entry.name),
  );
  if (source === "substack" || (source === undefined && substack)) return parseSubstack(archive);
  const poems = archive.entries.some((entry) => isPoemFile(entry.name));
  if (source === "files" || (source === undefined && poems)) return parsePlainFiles(archive, now);
  const exports = archive.entries.filter((entry) => /\.(xml|json|csv)$/i.test(entry.name));
  if (exports.length === 0) {
    const expected = source
      ? EXPECTED[source]
      : "a poem (.md, .txt) or a Substack, Ghost or WordPress export";
    throw new ImportFileError(`${archive.label} holds nothing that is ${expected}`, archive.label);
  }
  const parts: ParsedImport[] = [];
  for (const entry of exports)
    parts.push(await parseFile(await entry.read(), entry.label, source, now));
  const first = parts[0] as ParsedImport;
  const other = parts.find((part) => part.source !== first.source);
  if (other) {
    throw new ImportFileError(
      `${archive.label} holds exports of two platforms (${first.source} and ${other.source}); import them one at a time`,
      archive.label,
    );
  }
  const subscribers = new Map<string, ImportedSubscriber>();
  for (const subscriber of parts.flatMap((part) => part.subscribers)) {
    const known = subscribers.get(subscriber.email);
    if (!known || (!known.receivingEmail && subscriber.receivingEmail)) {
      subscribers.set(subscriber.email, subscriber);
    }
  }
  return {
    source: first.source,
    poems: parts.flatMap((part) => part.poems),
    subscribers: [...subscribers.values()],
    skipped: parts.flatMap((part) => part.skipped),
  };
}
