/**
 * The size limits of docs/ARCHITECTURE.md ("Where things go"), run by `npm run check`: no module
 * of server/ over 400 lines and no function there over 100, so that each file holds a use case
 * or a few and each function can be read on one screen. The schema (one table after another)
 * is the exception; tests are not counted.
 *
 * Prints each breach with its place and exits 1 if there is any.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "@babel/parser";

const root = path.resolve(import.meta.dirname, "..");
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 100;
const EXCEPTIONS = new Set(["server/db/schema.ts"]);

interface Node {
  type: string;
  loc?: { start: { line: number }; end: { line: number } };
  id?: { name?: string } | null;
  key?: { name?: string };
  [field: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as Node).type === "string";
}

/** Every function of `file` (declared, arrow, method) longer than the limit. */
function longFunctions(file: string, source: string): string[] {
  const program = parse(source, { sourceType: "module", plugins: ["typescript"] }).program;
  const found: string[] = [];
  const visit = (node: Node, parent: Node | undefined) => {
    if (/Function|ObjectMethod|ClassMethod/.test(node.type) && node.loc) {
      const lines = node.loc.end.line - node.loc.start.line + 1;
      if (lines > MAX_FUNCTION_LINES) {
        const name = node.id?.name ?? node.key?.name ?? parent?.id?.name ?? parent?.key?.name;
        found.push(`${file}:${node.loc.start.line}: ${name ?? "a function"} has ${lines} lines`);
      }
    }
    for (const [field, value] of Object.entries(node)) {
      if (field === "loc") continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isNode(child)) visit(child, node);
      }
    }
  };
  visit(program as unknown as Node, undefined);
  return found;
}

const files = readdirSync(path.join(root, "server"), { withFileTypes: true, recursive: true })
  .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
  .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
  .filter((file) => !EXCEPTIONS.has(file));

const breaches: string[] = [];
for (const file of files) {
  const source = readFileSync(path.join(root, file), "utf8");
  const lines = source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
  if (lines > MAX_FILE_LINES) breaches.push(`${file}: ${lines} lines`);
  breaches.push(...longFunctions(file, source));
}

if (breaches.length > 0) {
  console.error(
    `Over the size limits (${MAX_FILE_LINES} lines a file, ${MAX_FUNCTION_LINES} a function; docs/ARCHITECTURE.md):`,
  );
  for (const breach of breaches) console.error(`  ${breach}`);
  process.exit(1);
}
