import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";

const gzip = promisify(zlib.gzip);

/** Below this, a compressed body saves less than its headers cost. */
const MIN_COMPRESSED_BYTES = 1024;
/** zlib's default: for a 23 KB poem page, 5.8 KB in about 0.14 ms. */
const GZIP_LEVEL = 6;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/** The codings this server sends a body in. */
export type Encoding = "br" | "gzip" | "identity";

/** The content codings an Accept-Encoding header accepts: listed without `q=0`. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const entry of (header ?? "").split(",")) {
    const [coding = "", ...params] = entry.split(";").map((part) => part.trim().toLowerCase());
    const quality = params.find((param) => param.startsWith("q="));
    if (coding && (quality === undefined || Number(quality.slice(2)) > 0)) accepted.add(coding);
  }
  return accepted;
}

/** Whether a body compressed for this one response may be gzipped (gzip listed without `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  return acceptedEncodings(header).has("gzip");
}

/** Gzips a body for one response: zlib's default level, on its thread pool. */
export function gzipForOneResponse(body: Buffer) {
  return gzip(body, { level: GZIP_LEVEL });
}

/** Accept-Encoding headers already read: browsers send a handful of them, on every request. */
const preferred = new Map<string, Encoding>();
const PREFERRED_MAX = 100;

/** For bodies compressed ahead of time in both codings: Brotli, else gzip, else none. */
export function preferredEncoding(header: string | undefined): Encoding {
  const known = preferred.get(header ?? "");
  if (known) return known;
  const accepted = acceptedEncodings(header);
  const encoding: Encoding =
    accepted.has("br") || accepted.has("*") ? "br" : accepted.has("gzip") ? "gzip" : "identity";
  if (preferred.size >= PREFERRED_MAX) preferred.clear();
  preferred.set(header ?? "", encoding);
  return encoding;
}

/** Names Accept-Encoding in the answer's Vary, once (unless it varies with everything). */
export function varyWithAcceptEncoding(c: Context) {
  const vary = c.res.headers.get("Vary");
  if (vary !== "*" && !VARY_ACCEPT_ENCODING.test(vary ?? "")) {
    c.header("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  }
}

/**
 * Compresses text rendered for one request (pages for signed-in readers, JSON, feeds) with gzip
 * on zlib's thread pool. Brotli's better ratio pays where a body is compressed once (the build's
 * scripts, the page cache); per response, gzip 6 makes the poem page as small as Brotli 4 does
 * for less CPU (0.14 ms against 0.18 ms), and Hono's `compress()`, a CompressionStream over the
 * body, took 0.8 ms. Bodies are buffered whole: every compressible answer here is. A HEAD is
 * answered as its GET (Hono runs the GET's handler and drops the body after): the same coding
 * and the same Content-Length, which only the buffered body tells.
 */
export function compressText(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const response = c.res;
    const length = response.headers.get("Content-Length");
    if (
      response.status === 206 ||
      !response.body ||
      response.headers.has("Content-Encoding") ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(response.headers.get("Content-Type") ?? "") ||
      NO_TRANSFORM.test(response.headers.get("Cache-Control") ?? "") ||
      (length !== null && Number(length) < MIN_COMPRESSED_BYTES)
    ) {
      return;
    }
    varyWithAcceptEncoding(c);
    const isHead = c.req.method === "HEAD";
    if (!acceptsGzip(c.req.header("Accept-Encoding")) && !isHead) return;

    const body = Buffer.from(await response.arrayBuffer());
    if (body.length < MIN_COMPRESSED_BYTES || !acceptsGzip(c.req.header("Accept-Encoding"))) {
      c.res = new Response(body, response);
      c.res.headers.set("Content-Length", String(body.length));
      return;
    }
    const gzipped = await gzipForOneResponse(body);
    c.res = new Response(gzipped, response);
    c.res.headers.set("Content-Length", String(gzipped.length));
    c.res.headers.set("Content-Encoding", "gzip");
    // The compressed bytes differ from the identity ones: a strong validator would claim otherwise.
    const etag = c.res.headers.get("ETag");
    if (etag && !etag.startsWith("W/")) c.res.headers.set("ETag", `W/${etag}`);
  };
}
