import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { endpoints } from "../../common/endpoints.ts";
import * as otherRoutes from "../../common/other-routes.ts";
import type { App } from "../../server/app.ts";
import type { Database } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema.ts";

/** One route a handler answers: its method and Hono path pattern, e.g. `GET /api/poems/:slug`. */
export interface Endpoint {
  method: string;
  path: string;
  /** `METHOD path`, the key the security tables use. */
  key: string;
}

/** Every route the server answers besides its pages, by name, as the server registers them. */
export const declaredRoutes = { ...endpoints, ...otherRoutes };
export type DeclaredRoutes = typeof declaredRoutes;

const nameOfKey = new Map(
  Object.entries(declaredRoutes).map(([name, { method, path }]) => [`${method} ${path}`, name]),
);

/** The declared route's name for a `METHOD path` key, or undefined when none is declared. */
export const declaredRouteNamed = (key: string) =>
  nameOfKey.get(key) as keyof DeclaredRoutes | undefined;

/** Every declared route, as an Endpoint. */
export const listDeclaredEndpoints = (): Endpoint[] =>
  Object.values(declaredRoutes).map(({ method, path }) => ({
    method,
    path,
    key: `${method} ${path}`,
  }));

/**
 * Every endpoint the app registers, read from Hono's own route list, so a route registered
 * without its declaration is seen too. Middleware and the two fallbacks (the API's JSON 404
 * and the page handler) are registered for ALL methods; endpoints name their method.
 */
export function listEndpoints(app: App): Endpoint[] {
  const seen = new Set<string>();
  const endpoints: Endpoint[] = [];
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    endpoints.push({ method: route.method, path: route.path, key });
  }
  return endpoints;
}

export const isStateChanging = (endpoint: Endpoint) =>
  !["GET", "HEAD", "OPTIONS"].includes(endpoint.method);

/** Path parameters: `:name` optionally followed by a Hono pattern in braces. */
const PARAMETER = /:(\w+)(\{(?:[^{}]|\{[^{}]*\})*\})?/g;

export function parameterNames(path: string): string[] {
  return [...path.matchAll(PARAMETER)].map((match) => match[1] ?? "");
}

/** The path with each parameter replaced by `parameterValue(name)`, URL-encoded. */
export function fillPath(path: string, parameterValue: (name: string) => string): string {
  return path.replace(PARAMETER, (_match, name: string) =>
    encodeURIComponent(parameterValue(name)),
  );
}

/** Every table of the schema, so a table added later is counted too. */
export const allTables: PgTable[] = Object.values(schema as Record<string, unknown>).filter(
  (value): value is PgTable => is(value, PgTable),
);

/**
 * The tables a refused request must leave as they were: every table but the rate-limit counters,
 * where a refused fediverse post is charged to its sender's address
 * (docs/decisions/065-inbox-limits-by-who-proved-it.md).
 */
const storedTables = allTables.filter((table) => table !== schema.rateLimits);

/** Row counts of every table that holds what the site stores, by table name. */
export async function countRows(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of storedTables) {
    const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(table);
    counts[getTableName(table)] = row?.count ?? 0;
  }
  return counts;
}

/** Every row the site stores, for checks that nothing at all changed (not just the counts). */
export async function snapshotRows(db: Database): Promise<Record<string, string>> {
  const rows: Record<string, string> = {};
  for (const table of storedTables) {
    const all = await db.select().from(table);
    rows[getTableName(table)] = JSON.stringify(all.map((row) => JSON.stringify(row)).sort());
  }
  return rows;
}
