import type { MiddlewareHandler } from "hono";

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "\\d{2}:\\d{2}:\\d{2}";
/** RFC 9110's HTTP-date: IMF-fixdate, and the two obsolete forms a recipient must still read. */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/** An HTTP-date as milliseconds since the epoch; undefined when it is not one. */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (!value || !HTTP_DATE.test(value.trim())) return undefined;
  // The asctime form names no zone: it is in UTC.
  const time = Date.parse(/GMT$/.test(value.trim()) ? value : `${value.trim()} GMT`);
  return Number.isNaN(time) ? undefined : time;
}

/** What a 304 carries of the 200 it stands for (RFC 9110 §15.4.5). */
const NOT_MODIFIED_HEADERS = [
  "cache-control",
  "content-location",
  "date",
  "etag",
  "expires",
  "vary",
  "last-modified",
];

/**
 * Answers a GET or HEAD of a file with 304 when If-Modified-Since is at or after the file's own
 * Last-Modified (as serveStatic sends it, to the second). An If-None-Match decides instead when
 * present: a file has no entity tag, so only `*` (any current representation) matches it; a date
 * that is not an HTTP-date is ignored: the full answer (RFC 9110 §13.1.2, §13.1.3).
 */
export const notModifiedSince: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return;
  if (c.res.status !== 200) return;
  const noneMatch = c.req.header("If-None-Match");
  if (noneMatch !== undefined) {
    if (!noneMatch.split(",").some((tag) => tag.trim() === "*")) return;
  } else {
    const since = parseHttpDate(c.req.header("If-Modified-Since"));
    const modified = parseHttpDate(c.res.headers.get("Last-Modified") ?? undefined);
    if (since === undefined || modified === undefined || modified > since) return;
  }
  const headers = new Headers();
  for (const name of NOT_MODIFIED_HEADERS) {
    const value = c.res.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // The file's stream was opened for the 200: close it.
  await c.res.body?.cancel();
  // Hono copies the old answer's headers into a new one; unset first, it copies none.
  c.res = undefined;
  c.res = new Response(null, { status: 304, headers });
};
