import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
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

/**
 * Every endpoint the app registers, read from Hono's own route list so a route added on any
 * branch is covered without editing a list. Middleware and the two fallbacks (the API's JSON 404
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

/** Row counts of every table, by table name. */
export async function countRows(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of allTables) {
    const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(table);
    counts[getTableName(table)] = row?.count ?? 0;
  }
  return counts;
}

/** Every row of every table, for checks that nothing at all changed (not just the counts). */
export async function snapshotRows(db: Database): Promise<Record<string, string>> {
  const rows: Record<string, string> = {};
  for (const table of allTables) {
    const all = await db.select().from(table);
    rows[getTableName(table)] = JSON.stringify(all.map((row) => JSON.stringify(row)).sort());
  }
  return rows;
}
