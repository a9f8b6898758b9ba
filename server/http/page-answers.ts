import type { IncomingMessage, ServerResponse } from "node:http";
import { acceptsGzip, gzipForOneResponse, preferredEncoding } from "./compression.ts";
import type { Entry, SharedPage } from "./page-copies.ts";
import { notModifiedValidator, validatorsOf } from "./page-representations.ts";

/**
 * The page cache's answers (server/http/page-cache.ts), written straight to node:http: a 304, a
 * copy from memory, or the render that fills the cache.
 */

/** The extra headers of an answer that adds none to the page's own (no cookie to clear). */
export const NOTHING_TO_ADD: Record<string, string> = Object.freeze({});

function answerNotModified(
  response: ServerResponse,
  page: SharedPage,
  etag: string,
  extraHeaders: Record<string, string>,
) {
  response.writeHead(304, {
    ...extraHeaders,
    etag,
    vary: page.headers.vary ?? "",
    "cache-control": page.headers["cache-control"] ?? "no-cache",
  });
  response.end();
}

export function answerFromMemory(
  request: IncomingMessage,
  response: ServerResponse,
  entry: Entry,
  extraHeaders: Record<string, string>,
) {
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  const held = notModifiedValidator(request, entry.validators, encoding);
  if (held) return answerNotModified(response, entry, held, extraHeaders);
  const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
  const answer = entry.answers[encoding];
  response.writeHead(
    200,
    extraHeaders === NOTHING_TO_ADD ? answer : { ...answer, ...extraHeaders },
  );
  response.end(request.method === "HEAD" ? undefined : body);
}

/** A page just rendered has no compressed copies yet: it is gzipped for this response alone. */
export async function answerFromRender(
  request: IncomingMessage,
  response: ServerResponse,
  page: SharedPage,
  extraHeaders: Record<string, string>,
) {
  // A HEAD is told what its GET would be sent: the same coding, the same length.
  const isGzipped = acceptsGzip(request.headers["accept-encoding"]);
  const validators = validatorsOf(page.hash, false);
  const encoding = isGzipped ? "gzip" : "identity";
  const held = notModifiedValidator(request, validators, encoding);
  if (held) return answerNotModified(response, page, held, extraHeaders);
  const body = isGzipped ? await gzipForOneResponse(page.identity) : page.identity;
  response.writeHead(200, {
    ...page.headers,
    ...extraHeaders,
    etag: validators[encoding],
    ...(isGzipped ? { "content-encoding": "gzip" } : {}),
    "content-length": String(body.length),
  });
  response.end(request.method === "HEAD" ? undefined : body);
}
