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
  if (looksLikeZip(bytes)) {
    if (source === "ghost" || source === "wordpress")
      return wrongKind(bytes, file, source, "a zip archive");
    return parseArchive(openZip(bytes, file), source, now);
  }
  // Not a zip: a text export, or the wrong kind of file altogether.
  const type = await fileTypeFromBuffer(bytes.subarray(0, 4100)).catch(() => undefined);
  if (type && type.mime !== "application/xml") return wrongKind(bytes, file, source);
  const text = decodeText(bytes, file).replace(/^\ufeff/, "");
  const start = text.trimStart()[0];
  if (isPoemFile(file) && (source === undefined || source === "files")) {
    const entry = { name: file, size: bytes.length, label: file, read: async () => bytes };
    return parsePlainFiles({ label: file, entries: [entry] }, now);
  }
  if (start === "{" || start === "[") {
    if (source !== undefined && source !== "ghost")
      return wrongKind(bytes, file, source, "a JSON file");
    return parseGhostExport(text, file);
  }
  if (start === "<") {
    if (source !== undefined && source !== "wordpress")
      return wrongKind(bytes, file, source, "an XML file");
    return parseWordPress(text, file);
  }
  const header = csvHeader(text);
  if (header.includes("email")) {
    const ghost = header.includes("subscribed_to_emails");
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

/** A zip or folder: a Substack export when it has posts.csv or an email list, else poem files. */
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
  if (source === "files" || source === undefined) return parsePlainFiles(archive, now);
  throw new ImportFileError(
    `${archive.label} is a folder or zip; expected ${EXPECTED[source]}`,
    archive.label,
  );
}
