import matter from "gray-matter";
import { stanzaFromLines } from "../../common/stanza.ts";
import type { Archive, ArchiveEntry } from "./archive.ts";
import { reduceHtml } from "./html-stanzas.ts";
import { addPoem } from "./poem.ts";
import { parseDate, quotedValue } from "./text.ts";
import type { ParsedImport } from "./types.ts";
import { ImportFileError } from "./types.ts";

const POEM_FILE = /\.(md|markdown|txt)$/i;

export function isPoemFile(name: string): boolean {
  return POEM_FILE.test(name);
}

class FrontMatterRefused extends Error {}

const refuse = () => {
  throw new FrontMatterRefused("front matter may only be YAML");
};

/**
 * gray-matter reads only YAML here (decision 051): its JavaScript and CoffeeScript engines run the
 * front matter as code, so they and JSON are replaced by a refusal. Its YAML engine is js-yaml's
 * safeLoad (no functions, no custom types). Passing options also keeps gray-matter from caching
 * every file it has read.
 */
const FRONT_MATTER_OPTIONS = {
  language: "yaml",
  engines: {
    javascript: refuse,
    js: refuse,
    coffee: refuse,
    coffeescript: refuse,
    cson: refuse,
    json: refuse,
    toml: refuse,
  },
};

const latin = new TextDecoder("windows-1252");
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A file name as a title: no folder, no extension, hyphens and underscores as spaces. */
function titleFromName(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1).replace(POEM_FILE, "");
  return base.replace(/[-_]+/g, " ").trim();
}

/**
 * Tags as front matter gives them: a list or "a, b". Only plain values count: YAML aliases can
 * nest a list in itself a thousand times over, and turning that into text would never end.
 */
function textList(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.filter((item) => typeof item === "string" || typeof item === "number").map(String);
  }
  if (typeof value === "string") return value.split(",");
  return [];
}

/**
 * A .md or .txt poem (docs/product/import.md): optional YAML front matter (title, date, tags,
 * slug, draft); stanzas separated by blank lines, leading spaces kept. The title is the front
 * matter's, else the first line when a blank line follows it, else the file name. Markdown's
 * headings, images and section rules are dropped with a note, and any HTML in it is reduced to
 * text; a .txt is taken as it is.
 */
async function addPoemFile(entry: ArchiveEntry, into: ParsedImport, now: Date): Promise<void> {
  const bytes = await entry.read();
  const notes: string[] = [];
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = latin.decode(bytes);
    notes.push("It was not UTF-8: it was read as Windows-1252");
  }
  if (text.includes("\u0000")) {
    into.skipped.push({
      sourceId: entry.name,
      title: titleFromName(entry.name),
      reason: "It is not a text file",
    });
    return;
  }
  text = text.replace(/\r\n?/g, "\n");
  let data: Record<string, unknown> = {};
  let body = text;
  try {
    const parsed = matter(text, FRONT_MATTER_OPTIONS);
    data = (parsed.data ?? {}) as Record<string, unknown>;
    body = parsed.content;
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const where = typeof mark?.line === "number" ? ` (line ${mark.line + 2})` : "";
    const why = error instanceof FrontMatterRefused ? error.message : "it is not valid YAML";
    into.skipped.push({
      sourceId: entry.name,
      title: titleFromName(entry.name),
      reason: `Its front matter could not be read${where}: ${why}`,
    });
    return;
  }
  const markdown = !/\.txt$/i.test(entry.name);
  let lines = body.split("\n");
  while (lines.length > 0 && lines[0]?.trim() === "") lines.shift();
  let title =
    typeof data.title === "string" || typeof data.title === "number" ? String(data.title) : "";
  while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
  // A first line is a title only when a blank line, and then the poem, follow it.
  if (title.trim() === "" && lines.length > 2 && lines[1]?.trim() === "") {
    title = (markdown ? lines[0]?.replace(/^#+\s*/, "") : lines[0]) ?? "";
    lines = lines.slice(2);
  }
  if (title.trim() === "") title = titleFromName(entry.name);
  if (markdown) {
    lines = lines.flatMap((line) => {
      const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (heading) {
        notes.push(`Dropped the heading “${heading[1]}”`);
        return [""];
      }
      if (/^\s*!\[[^\]]*\]\([^)]*\)\s*$/.test(line)) {
        notes.push("Dropped an image");
        return [""];
      }
      // A section rule (---, ***, * * *) reads as a stanza break.
      return /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line) ? [""] : [line];
    });
  }
  const reduced = markdown ? reduceHtml(lines.join("\n"), "pre") : null;
  const stanzas = reduced ? reduced.stanzas : stanzasOfText(lines.join("\n"));
  if (reduced) notes.push(...reduced.notes);
  const draft = data.draft === true;
  // YAML reads `date: 2019` as a number: a year, not Ghost's milliseconds.
  const date =
    typeof data.date === "number"
      ? Number.isInteger(data.date) && data.date >= 1000 && data.date <= 9999
        ? new Date(Date.UTC(data.date, 0, 1))
        : null
      : parseDate(data.date);
  if (date === null && data.date != null && data.date !== "" && !draft) {
    notes.push(`Its date ${quotedValue(data.date)} could not be read: it is dated at the import`);
  }
  addPoem(
    {
      sourceId: entry.name,
      title,
      slug: typeof data.slug === "string" ? data.slug : null,
      stanzas,
      unreadable: reduced?.unreadable,
      tags: textList(data.tags),
      state: draft ? "draft" : date && date > now ? "scheduled" : "published",
      publishAt: draft ? null : date,
      coverUrl: null,
      coverAlt: null,
      oldPaths: [],
      notes,
    },
    into,
  );
}

/** Plain text's stanzas: blank lines between them, tabs as four spaces, line ends trimmed. */
function stanzasOfText(text: string): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((stanza) =>
      stanzaFromLines(
        stanza
          .split("\n")
          .map((line) => line.replaceAll("\t", "    ").trimEnd())
          .filter((line) => line !== ""),
      ),
    )
    .filter((stanza) => stanza !== "");
}

/** A zip or folder of poems, or one poem file. Other files in it are listed as skipped. */
export async function parsePlainFiles(archive: Archive, now: Date): Promise<ParsedImport> {
  const result: ParsedImport = { source: "files", poems: [], subscribers: [], skipped: [] };
  const poems = archive.entries.filter((entry) => isPoemFile(entry.name));
  if (poems.length === 0) {
    throw new ImportFileError(`${archive.label} holds no .md or .txt poems`, archive.label);
  }
  for (const entry of archive.entries) {
    if (isPoemFile(entry.name)) await addPoemFile(entry, result, now);
    else
      result.skipped.push({
        sourceId: entry.name,
        title: entry.name,
        reason: "It is not a .md or .txt file",
      });
  }
  return result;
}
