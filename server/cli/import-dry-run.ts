import fs from "node:fs/promises";
import path from "node:path";
import { IMPORT_MAX_BYTES } from "../../common/schemas/import.ts";
import { parseImport } from "../import/parse.ts";
import { whyNotRedirectable } from "../import/redirect-reasons.ts";
import { ImportFileError, type ImportSource } from "../import/types.ts";

/**
 * `import FILE --dry-run` when no server holds the embedded database
 * (docs/decisions/061-a-dry-run-reads-the-file-alone.md): the export is read and described
 * without opening the database, whose engine alone takes some 400 MB and seconds to start. What
 * only the site can tell (a poem already imported, a slug taken, an old address another poem
 * keeps) is named as not checked, never guessed.
 */
export async function dryRunImport(
  file: string,
  source: ImportSource | undefined,
  now: Date,
): Promise<string> {
  const stat = await fs.stat(file).catch(() => {
    throw new Error(`${file}: no such file or folder`);
  });
  if (stat.isFile() && stat.size > IMPORT_MAX_BYTES) {
    throw new Error(
      `${path.basename(file)} is over the ${IMPORT_MAX_BYTES / 1024 / 1024} MB limit for an import`,
    );
  }
  const input = stat.isDirectory()
    ? { directory: file }
    : { fileName: path.basename(file), bytes: new Uint8Array(await fs.readFile(file)) };
  const parsed = await parseImport(input, source, { now }).catch((error: unknown) => {
    throw error instanceof ImportFileError ? new Error(error.message) : error;
  });
  const lines = [
    `found ${parsed.poems.length} poems in ${path.basename(file)} (${parsed.source}):`,
  ];
  for (const poem of parsed.poems) {
    const date = poem.publishAt ? ` ${poem.publishAt.toISOString().slice(0, 10)}` : "";
    const chosen = poem.chosen ? "" : " [left out unless chosen on the import page]";
    lines.push(`  ${poem.title}, ${poem.state}${date}${chosen}`);
    for (const note of poem.notes) lines.push(`    note: ${note}`);
    for (const old of new Set(poem.oldPaths)) {
      const why = whyNotRedirectable(old);
      lines.push(why ? `    not redirected: ${old} (${why})` : `    redirects: ${old}`);
    }
  }
  for (const item of parsed.skipped) {
    lines.push(`skipped ${item.title || item.sourceId}: ${item.reason}`);
  }
  const receiving = parsed.subscribers.filter((reader) => reader.receivingEmail).length;
  lines.push(`found ${parsed.subscribers.length} subscribers: ${receiving} receiving email`);
  const reasons = new Map<string, number>();
  for (const reader of parsed.subscribers) {
    if (reader.receivingEmail) continue;
    const reason = reader.skipReason ?? "Not receiving email there";
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  for (const [reason, count] of reasons) lines.push(`skipped ${count} subscribers: ${reason}`);
  lines.push(
    "not checked against this site (its database is not opened for a dry run): poems already imported, slugs already taken, old addresses other poems keep, readers already subscribed",
  );
  lines.push("dry run: nothing stored");
  return lines.join("\n");
}
