import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { type Archive, looksLikeZip, openDirectory, openZip } from "./archive.ts";
import { IMPORT_MAX_BYTES } from "./limits.ts";
import { isPoemFile, parsePlainFiles } from "./plain-files.ts";
import type { ImportSource, ParsedImport } from "./types.ts";
import { ImportFileError } from "./types.ts";

/** What a parser reads: one uploaded file's bytes, or a folder on disk (the CLI). */
export type ImportInput = { fileName: string; bytes: Uint8Array } | { directory: string };

export interface ParseOptions {
  /** When "now" is, for a plain file dated in the future (scheduled); the service's clock. */
  now?: Date;
}

const SOURCE_NAMES: Record<ImportSource, string> = {
  substack: "a Substack export (.zip)",
  ghost: "a Ghost export (.json) or Ghost members file (.csv)",
  wordpress: "a WordPress export (WXR .xml)",
  files: "a .zip or folder of .md and .txt poems, or one such file",
};

/** The poet's words for a file that is none of the exports. */
async function wrongKind(bytes: Uint8Array, file: string, source?: ImportSource): Promise<never> {
  const type = await fileTypeFromBuffer(bytes.subarray(0, 4100)).catch(() => undefined);
  const what = type ? `a ${type.ext.toUpperCase()} file` : "not an export this site reads";
  const expected = source
    ? SOURCE_NAMES[source]
    : "a Substack, Ghost, WordPress or plain-text export";
  throw new ImportFileError(`${file} is ${what}; expected ${expected}`, file);
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
  const file = path.basename(input.fileName.replaceAll("\\", "/")) || "the file";
  const { bytes } = input;
  if (bytes.length > IMPORT_MAX_BYTES) {
    throw new ImportFileError(
      `${file} is larger than ${IMPORT_MAX_BYTES / 1_048_576} MB, the most an import reads`,
      file,
    );
  }
  if (bytes.length === 0) throw new ImportFileError(`${file} is empty`, file);
  if (looksLikeZip(bytes)) return parseArchive(openZip(bytes, file), source, now);
  if (source === "substack" && !file.toLowerCase().endsWith(".csv"))
    return wrongKind(bytes, file, source);
  if (source === "files" || (source === undefined && isPoemFile(file))) {
    const entry = { name: file, size: bytes.length, label: file, read: async () => bytes };
    if (!isPoemFile(file)) return wrongKind(bytes, file, source);
    return parsePlainFiles({ label: file, entries: [entry] }, now);
  }
  return wrongKind(bytes, file, source);
}

async function parseArchive(
  archive: Archive,
  source: ImportSource | undefined,
  now: Date,
): Promise<ParsedImport> {
  if (source === undefined || source === "files") return parsePlainFiles(archive, now);
  throw new ImportFileError(`${archive.label} is not ${SOURCE_NAMES[source]}`, archive.label);
}
