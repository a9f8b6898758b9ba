/**
 * Two rules of docs/ARCHITECTURE.md that the type checker cannot hold, run by `npm run check`:
 *
 * 1. Every path is written once (docs/decisions/078-every-path-written-once.md): outside the
 *    declarations, no string or template literal in server/ or common/ spells a path of the
 *    site; code builds it with common/paths.ts from the declaration. In app/ too, a link with
 *    parameters or a query is built there, and a page is named by its declaration
 *    (`pages.about`); a whole path written out must be another declared route, so a typo or an
 *    undeclared address fails here. A literal naming a file of public/ is a file, not a route.
 * 2. The fediverse is an adapter: no module of server/ imports server/fediverse/ but the
 *    adapter's own and the places that assemble the process (the composition roots).
 * 3. A feature takes what it uses: its routes and services name the services they call by their
 *    own types, so no module of server/ imports server/services.ts, which assembles them all, but
 *    the composition roots and the operator's commands (server/cli/), which drive the whole site.
 *
 * Prints each breach with its place and exits 1 if there is any.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "@babel/parser";
import { endpoints } from "../common/endpoints.ts";
import * as otherRoutes from "../common/other-routes.ts";
import * as pages from "../common/pages.ts";
import { matcherOf } from "../common/path-builder.ts";
import { SITE_PATH_SEGMENTS } from "../common/site-pages.ts";

const root = path.resolve(import.meta.dirname, "..");

/** Where paths are declared, and so written. */
const DECLARATIONS = new Set([
  "common/pages.ts",
  "common/site-pages.ts",
  "common/endpoints.ts",
  "common/other-routes.ts",
  "common/mounts.ts",
  "common/echo-counts.ts",
]);

/** The modules that assemble the process, and so may name the fediverse adapter. */
const COMPOSITION_ROOTS = new Set([
  "server/compose.ts",
  "server/services.ts",
  "server/app.ts",
  "server/admin-router.ts",
  "server/main.ts",
  "server/cli.ts",
]);
const FEDIVERSE = "server/fediverse/";
const ALL_SERVICES = "server/services.ts";

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.includes(`${path.sep}.react-router${path.sep}`));
}

/** A literal that spells a path of this site, by its first segment. */
function isSitePath(text: string): boolean {
  if (!text.startsWith("/") || text.startsWith("//") || text === "/") return false;
  const first = text.slice(1).split(/[/?#]/)[0] ?? "";
  if (!SITE_PATH_SEGMENTS.has(first)) return false;
  const file = text.split(/[?#]/)[0] ?? "";
  return !existsSync(path.join(root, "public", file));
}

const declaredPaths = [
  ...Object.values(pages),
  ...Object.values(otherRoutes).map((route) => route.path),
  ...Object.values(endpoints).map((endpoint) => endpoint.path),
];
const declaredMatchers = declaredPaths.map((declared) => matcherOf(declared));
const pagePaths = new Set<string>(Object.values(pages));

/**
 * Why an address the browser's bundle writes out is not the declarations' own, or undefined: a
 * link with parameters or a query is built with common/paths.ts, a page is named by its constant,
 * and any other whole path must be declared.
 */
function appLinkProblem(text: string, isTemplateStart: boolean): string | undefined {
  if (isTemplateStart) return "is written out; build it with common/paths.ts";
  const [path = ""] = text.split(/[?#]/);
  if (path.length < text.length) return "carries a query; build it with common/paths.ts";
  if (!declaredMatchers.some((matches) => matches(path))) return "is no declared path";
  if (pagePaths.has(path)) return "is a page: name it with common/pages.ts";
  return undefined;
}

/** An absolute path on this site that is not a file of public/. */
function isAddress(text: string): boolean {
  if (!/^\/[a-z.]/i.test(text)) return false;
  return !existsSync(path.join(root, "public", text.split(/[?#]/)[0] ?? ""));
}

const breaches: string[] = [];

interface Node {
  type: string;
  loc?: { start: { line: number } };
  [key: string]: unknown;
}

/** Every node of a syntax tree, depth first. */
function* nodesOf(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const child of node) yield* nodesOf(child);
    return;
  }
  if (!node || typeof node !== "object" || typeof (node as Node).type !== "string") return;
  yield node as Node;
  for (const [key, child] of Object.entries(node)) {
    if (key !== "loc" && key !== "extra" && child && typeof child === "object") {
      yield* nodesOf(child);
    }
  }
}

/** The text a literal starts with: a string's whole, a template's up to its first `${`. */
function literalStart(node: Node): string | undefined {
  if (node.type === "StringLiteral") return node.value as string;
  if (node.type === "TemplateLiteral") {
    const [first] = node.quasis as { value: { cooked: string } }[];
    return first?.value.cooked;
  }
  return undefined;
}

const IMPORTS = new Set(["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration"]);

for (const file of [...sourceFiles("server"), ...sourceFiles("common"), ...sourceFiles("app")]) {
  const program = parse(readFileSync(path.join(root, file), "utf8"), {
    sourceType: "module",
    plugins: ["typescript", ...(file.endsWith(".tsx") ? (["jsx"] as const) : [])],
  });
  const mayImportFediverse =
    !file.startsWith("server/") || file.startsWith(FEDIVERSE) || COMPOSITION_ROOTS.has(file);
  const mayImportAllServices =
    !file.startsWith("server/") || COMPOSITION_ROOTS.has(file) || file.startsWith("server/cli/");
  for (const node of nodesOf(program.program)) {
    const where = `${file}:${node.loc?.start.line ?? 0}`;
    if (IMPORTS.has(node.type)) {
      const specifier = (node.source as { value?: string } | null)?.value;
      const target =
        specifier?.startsWith(".") &&
        path.relative(root, path.resolve(path.dirname(path.join(root, file)), specifier));
      if (!mayImportFediverse && target && target.startsWith(FEDIVERSE)) {
        breaches.push(
          `${where}: imports the fediverse adapter (${target}); take what it needs as a dependency`,
        );
      }
      if (target === ALL_SERVICES && !mayImportAllServices) {
        breaches.push(
          `${where}: imports every service (${target}); take the services it calls by their types`,
        );
      }
      continue;
    }
    const text = literalStart(node);
    if (text === undefined || DECLARATIONS.has(file)) continue;
    // In app/ every address the browser's bundle writes is checked, so a misspelt first segment
    // is caught too; elsewhere, the site's own paths.
    if (file.startsWith("app/") ? !isAddress(text) : !isSitePath(text)) continue;
    if (file.startsWith("app/")) {
      const problem = appLinkProblem(text, node.type === "TemplateLiteral");
      if (problem) breaches.push(`${where}: the link "${text}" ${problem}`);
    } else {
      breaches.push(`${where}: the path "${text}" is written out; build it with common/paths.ts`);
    }
  }
}

if (breaches.length > 0) {
  console.error(breaches.join("\n"));
  console.error(`\n${breaches.length} breaches of docs/ARCHITECTURE.md's boundaries`);
  process.exit(1);
}
console.log(
  "boundaries held: every path from its declaration, the fediverse an adapter, features take what they use",
);
