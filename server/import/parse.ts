import type { ImportSource, ParsedImport } from "./types.ts";
import { ImportFileError } from "./types.ts";

/** What a parser reads: one uploaded file's bytes, or a folder on disk (the CLI). */
export type ImportInput = { fileName: string; bytes: Uint8Array } | { directory: string };

/**
 * Reads a platform's export into one normalised result (docs/product/import.md). The source is
 * detected from the content when not given. Every refusal is an ImportFileError naming the file.
 */
export async function parseImport(
  input: ImportInput,
  source?: ImportSource,
): Promise<ParsedImport> {
  const file = "fileName" in input ? input.fileName : input.directory;
  throw new ImportFileError(`Importing ${source ?? "this file"} is not available yet`, file);
}
