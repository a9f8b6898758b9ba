import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { dayInZone } from "../../common/dates.ts";
import type { Logger } from "../logger.ts";
import { preferredEncoding } from "./compression.ts";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Pages readers see without signing in; everything else (API, files, admin, forms) is rendered. */
const UNCACHED_PREFIXES = [
  "/api/",
  "/objects/",
  "/og/",
  "/assets/",
  "/admin",
  "/login",
  "/unsubscribe",
  "/subscribe",
];
/** Page paths have no file extension, except React Router's `.data` for client navigation. */
const FILE_PATH = /\.(?!data$)[a-z0-9]+$/i;
/** Public reads of the content itself (never interactions, which change with every echo). */
const CONTENT_READS =
  /^\/(?:api\/(?:poems(?:\/[^/]+)?|tags|themes\/[^/]+|books(?:\/[^/]+)?|embers(?:\/featured)?|ember\/today)|sitemap\.xml|feed\.xml)$/;

function isCacheablePath(path: string): boolean {
  if (CONTENT_READS.test(path)) return true;
  return !FILE_PATH.test(path) && !UNCACHED_PREFIXES.some((prefix) => path.startsWith(prefix));
}
/** Any session cookie means a signed-in reader, whose pages carry their own state. */
const SESSION_COOKIE = /session_token=/;
const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
const NOT_CACHEABLE_MS = 60_000;
/** Headers that belong to one response, not to the page. */
const PER_RESPONSE_HEADERS = new Set([
  "date",
  "content-length",
  "content-encoding",
  "x-request-id",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);

interface Entry {
  day: string;
  headers: Record<string, string>;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  bytes: number;
}

/**
 * A policy that lets exactly these inline scripts run: their SHA-256 hashes instead of the
 * render's nonce. A cached page is sent to many readers, and a nonce must never be reused.
 */
function hashedScriptPolicy(policy: string, html: string): string {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "")
        .digest("base64")}'`,
    );
  }
  return policy.replace(/'nonce-[^']*'/, [...hashes].join(" ") || "'none'");
}

export interface PageCache {
  /** Answers a cacheable request from memory; false when the app has to render it. */
  serve(request: IncomingMessage, response: ServerResponse): boolean;
  /** Forgets every page (content changed); pages being rendered now are not kept either. */
  clear(): void;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

/**
 * Anonymous pages kept in memory as rendered HTML (and `.data`, content API reads, the sitemap
 * and feed), served with an ETag, 304s and
 * precompressed bodies straight from node:http. The first request for a page is rendered by the
 * app as usual while a copy is rendered for the cache; a content change clears it all
 * (ContentChanges), and a page rendered on another day in SITE_TIMEZONE is rendered again.
 */
export function createPageCache(options: {
  /** Renders a path as an anonymous reader would see it. */
  render(pathWithQuery: string): Promise<Response>;
  siteTimezone: string;
  logger: Logger;
}): PageCache {
  const entries = new Map<string, Entry>();
  const filling = new Set<string>();
  /** Paths whose render was not cacheable, and until when not to try again. */
  const notCacheable = new Map<string, number>();
  let generation = 0;
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  // Which day it is, looked up at most once a second: embers change at midnight.
  let today = { day: dayInZone(options.siteTimezone), checkedAt: Date.now() };
  const currentDay = () => {
    const now = Date.now();
    // A clock set back counts as a change too.
    if (Math.abs(now - today.checkedAt) > 1_000)
      today = { day: dayInZone(options.siteTimezone), checkedAt: now };
    return today.day;
  };

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  async function fill(key: string, day: string) {
    const startedIn = generation;
    try {
      const rendered = await options.render(key);
      if (rendered.status !== 200 || rendered.headers.has("set-cookie")) {
        // A 404 or a personal answer: do not render it twice per request for a while.
        notCacheable.set(key, Date.now() + NOT_CACHEABLE_MS);
        if (notCacheable.size > MAX_ENTRIES) notCacheable.clear();
        return;
      }
      const identity = Buffer.from(await rendered.arrayBuffer());
      const headers: Record<string, string> = {};
      rendered.headers.forEach((value, name) => {
        if (!PER_RESPONSE_HEADERS.has(name)) headers[name] = value;
      });
      const policy = headers["content-security-policy"];
      if (policy)
        headers["content-security-policy"] = hashedScriptPolicy(policy, identity.toString("utf8"));
      const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
      const [gzipped, brotlied] = await Promise.all([
        gzip(identity, { level: 9 }),
        brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      ]);
      // A content change during the render may have made this copy stale already.
      if (startedIn !== generation) return;
      const entry: Entry = {
        day,
        headers: { ...headers, etag, vary: "Accept-Encoding, Cookie", "cache-control": "no-cache" },
        etag,
        identity,
        gzip: gzipped,
        br: brotlied,
        bytes: identity.length + gzipped.length + brotlied.length,
      };
      remove(key);
      entries.set(key, entry);
      bytes += entry.bytes;
      for (const [oldest] of entries) {
        if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
        remove(oldest);
      }
    } catch (error) {
      options.logger.warn({ err: error, path: key }, "page could not be cached");
    } finally {
      filling.delete(key);
    }
  }

  return {
    serve(request, response) {
      const method = request.method;
      const key = request.url ?? "/";
      if (method !== "GET" && method !== "HEAD") return false;
      if (SESSION_COOKIE.test(request.headers.cookie ?? "")) return false;
      const path = key.split("?", 1)[0] ?? "/";
      if (!isCacheablePath(path)) return false;
      const day = currentDay();
      const entry = entries.get(key);
      if (!entry || entry.day !== day) {
        misses += 1;
        const isKnownUncacheable = (notCacheable.get(key) ?? 0) > Date.now();
        if (!filling.has(key) && !isKnownUncacheable) {
          filling.add(key);
          void fill(key, day);
        }
        return false;
      }
      hits += 1;
      if (request.headers["if-none-match"] === entry.etag) {
        response.writeHead(304, {
          etag: entry.etag,
          vary: entry.headers.vary ?? "",
          "cache-control": "no-cache",
        });
        response.end();
        return true;
      }
      const encoding = preferredEncoding(request.headers["accept-encoding"] as string | undefined);
      const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
      response.writeHead(200, {
        ...entry.headers,
        ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
        "content-length": String(body.length),
      });
      response.end(method === "HEAD" ? undefined : body);
      return true;
    },

    clear() {
      generation += 1;
      entries.clear();
      notCacheable.clear();
      bytes = 0;
    },

    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}
